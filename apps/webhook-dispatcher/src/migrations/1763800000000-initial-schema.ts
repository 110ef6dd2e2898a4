import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createInboxTable, createOutboxTable } from '@payments/messaging';

export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_events (
        id text PRIMARY KEY,
        source_event_id text NOT NULL,
        business_id integer NOT NULL,
        mode text NOT NULL,
        event_type text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (source_event_id, event_type)
      )`);
    await q.query('CREATE INDEX webhook_events_business ON webhook_events (business_id, mode, created_at DESC)');
    await createInboxTable(q);
    await createOutboxTable(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE outbox_events');
    await q.query('DROP TABLE processed_events');
    await q.query('DROP TABLE webhook_events');
  }
}
