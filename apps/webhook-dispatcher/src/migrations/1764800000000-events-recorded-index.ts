import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@payments/database';

/**
 * The recorded-order index, built CONCURRENTLY so busy `webhook_events` keeps taking writes (hence
 * `transaction = false`). An INVALID index from a failed build is dropped first; one the previous migration's first
 * version built is kept.
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
