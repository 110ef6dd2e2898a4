import type { QueryRunner } from 'typeorm';

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
