import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The index of the events API's recorded order (see the previous migration), built CONCURRENTLY:
 * `webhook_events` takes writes all the time, and a plain CREATE INDEX would block them for the
 * whole build. CONCURRENTLY cannot run inside a transaction block, hence `transaction = false`
 * (the migration runner runs each migration in its own transaction unless it says so).
 *
 * A concurrent build that fails (or is interrupted) leaves an INVALID index behind, which
 * `IF NOT EXISTS` would take as done: it is dropped first, so running this again rebuilds it.
 * Where the first version of the previous migration built the index already, it is valid and kept.
 */
export class EventsRecordedIndex1764800000000 implements MigrationInterface {
  name = 'EventsRecordedIndex1764800000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    const invalid: unknown[] = await q.query(
      `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = 'webhook_events_recorded' AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`,
    );
    if (invalid.length > 0) await q.query('DROP INDEX CONCURRENTLY webhook_events_recorded');
    await q.query('CREATE INDEX CONCURRENTLY IF NOT EXISTS webhook_events_recorded ON webhook_events (business_id, mode, recorded_xid DESC, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS webhook_events_recorded');
  }
}
