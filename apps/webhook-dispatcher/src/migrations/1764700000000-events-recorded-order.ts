import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order events were recorded in, for followers of the events API (`GET /v1/events?order=recorded`,
 * `ops webhooks listen`): the id of the transaction that inserted the row. `created_at` is the
 * source event's time, so a dispatcher that lags records events long after that time; the
 * inserting transaction's id orders them as they were written instead. Rows that exist now all
 * get this migration's transaction id (ties are broken by id), which is older than any later one.
 *
 * `pg_current_xact_id()` is STABLE, so PostgreSQL evaluates the default once and stores it as the
 * column's missing value: ADD COLUMN is a catalogue change, the table is not rewritten.
 *
 * Its index is built by the next migration, CONCURRENTLY (outside a transaction), so the hot table
 * is not blocked for writes while it builds. This migration first shipped with a plain CREATE INDEX;
 * where that version already ran, the index exists and the next migration leaves it as it is.
 * The values only mean something within one PostgreSQL cluster: see docs/operations.md
 * ("Moving the webhook database") after a dump/restore or a logical-replication switchover.
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
