import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@payments/database';

/**
 * Drops `deliveries_event (event_id)`: the unique index of `UNIQUE (event_id, callback_id)` starts with event_id, so it
 * serves every lookup by event (an event's deliveries, the foreign key's check when an event is pruned) as well. Every
 * delivery written paid for both (docs/benchmarks.md, nineteenth round). Dropped CONCURRENTLY, so writes go on.
 */
export class DeliveriesDropEventIndex1765400000000 implements MigrationInterface {
  name = 'DeliveriesDropEventIndex1765400000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await dropIndexConcurrently(q, 'deliveries_event');
  }

  async down(q: QueryRunner): Promise<void> {
    await createIndexConcurrently(q, 'deliveries_event', 'deliveries (event_id)');
  }
}
