import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@payments/database';

/**
 * The recorded-order index, built CONCURRENTLY so that the busy `webhook_events` is not blocked
 * for writes; that cannot run in a transaction, hence `transaction = false`. A failed concurrent
 * build leaves an INVALID index that `IF NOT EXISTS` would take as done, so it is dropped first.
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
