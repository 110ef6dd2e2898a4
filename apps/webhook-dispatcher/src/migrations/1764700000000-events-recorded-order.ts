import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `recorded_xid`: the id of the transaction that inserted each event, the order followers of
 * `GET /v1/events?order=recorded` read (`created_at` is the source event's time, which a lagging
 * dispatcher records long after). The default is STABLE, so ADD COLUMN stores it once as the
 * missing value and does not rewrite the table; existing rows share it (ties broken by id). The
 * index comes in the next migration, CONCURRENTLY. The values mean something only within one
 * cluster (docs/operations.md, "Moving the webhook database").
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
