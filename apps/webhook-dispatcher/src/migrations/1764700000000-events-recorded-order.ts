import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `recorded_xid`: the inserting transaction's id, the order `order=recorded` followers read (`created_at` is the source
 * event's time, which a lagging dispatcher records late). The STABLE default avoids a table rewrite; the index comes in
 * the next migration. Values hold only within one cluster (docs/operations.md).
 */
export class EventsRecordedOrder1764700000000 implements MigrationInterface {
  name = 'EventsRecordedOrder1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_events ADD COLUMN recorded_xid xid8 NOT NULL DEFAULT pg_current_xact_id()');
  }

  async down(q: QueryRunner): Promise<void> {
    // Where the first version of this migration ran, the index is its own (the next one skipped it).
    await q.query('DROP INDEX IF EXISTS webhook_events_recorded');
    await q.query('ALTER TABLE webhook_events DROP COLUMN recorded_xid');
  }
}
