import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@payments/database';

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
    await createIndexConcurrently(
      q,
      'webhook_events_recorded',
      'webhook_events (business_id, mode, recorded_xid DESC, id DESC)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await dropIndexConcurrently(q, 'webhook_events_recorded');
  }
}
