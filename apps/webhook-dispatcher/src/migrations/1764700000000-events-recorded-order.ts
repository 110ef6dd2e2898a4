import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order events were recorded in, for followers of the events API (`GET /v1/events?order=recorded`,
 * `ops webhooks listen`): the id of the transaction that inserted the row. `created_at` is the
 * source event's time, so a dispatcher that lags records events long after that time; the
 * inserting transaction's id orders them as they were written instead. Rows that exist now all
 * get this migration's transaction id (ties are broken by id), which is older than any later one.
 */
export class EventsRecordedOrder1764700000000 implements MigrationInterface {
  name = 'EventsRecordedOrder1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_events ADD COLUMN recorded_xid xid8 NOT NULL DEFAULT pg_current_xact_id()');
    await q.query('CREATE INDEX webhook_events_recorded ON webhook_events (business_id, mode, recorded_xid DESC, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_events_recorded');
    await q.query('ALTER TABLE webhook_events DROP COLUMN recorded_xid');
  }
}
