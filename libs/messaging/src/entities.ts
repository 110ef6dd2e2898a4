import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { QueryRunner } from 'typeorm';

/** An event waiting to be (or already) published. Written in the same transaction as the change. */
@Entity({ name: 'outbox_events' })
export class OutboxEventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Index({ unique: true })
  @Column({ type: 'uuid', name: 'event_id' })
  eventId: string;

  @Column({ type: 'text' })
  topic: string;

  /** Kafka message key: the aggregate id, so one aggregate's events stay in one partition, in order. */
  @Column({ type: 'text', name: 'message_key' })
  messageKey: string;

  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  headers: Record<string, string>;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @Column({ type: 'timestamptz', name: 'published_at', nullable: true })
  publishedAt: Date | null;
}

/** The inbox: one row per (consumer group, event) applied. Written with the event's effect. */
@Entity({ name: 'processed_events' })
export class ProcessedEventEntity {
  @PrimaryColumn({ type: 'text', name: 'consumer_group' })
  consumerGroup: string;

  @PrimaryColumn({ type: 'text', name: 'event_id' })
  eventId: string;

  @Column({ type: 'text' })
  topic: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'processed_at' })
  processedAt: Date;
}

/** DDL shared by every service's first migration (each service still owns its own tables). */
export async function createOutboxTable(runner: QueryRunner): Promise<void> {
  await runner.query(`
    CREATE TABLE outbox_events (
      id bigserial PRIMARY KEY,
      event_id uuid NOT NULL UNIQUE,
      topic text NOT NULL,
      message_key text NOT NULL,
      payload jsonb NOT NULL,
      headers jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz
    )`);
  await runner.query('CREATE INDEX outbox_events_unpublished ON outbox_events (id) WHERE published_at IS NULL');
}

export async function createInboxTable(runner: QueryRunner): Promise<void> {
  await runner.query(`
    CREATE TABLE processed_events (
      consumer_group text NOT NULL,
      event_id text NOT NULL,
      topic text NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer_group, event_id)
    )`);
}

/** Entities of a service that both consumes (inbox) and publishes (outbox). */
export const InboxEntities = [ProcessedEventEntity, OutboxEventEntity];
