import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@payments/database';

/**
 * One index of events by transaction, `webhook_events_by_transaction ((payload->>'transaction_id'), created_at)`, in
 * place of two: `webhook_events_transaction` (the same key, `transaction.*` events only: `ops reconcile`'s latest
 * status of each transaction) and `webhook_events_of_transaction` (business, mode and transaction: the dashboard's
 * payment page). A transaction id is one transaction's, so both lookups find its few events by the id alone and check
 * the rest on them. Every event recorded paid for the second, and a `transaction.*` event for the first as well
 * (docs/benchmarks.md, twenty-fourth round). The new index is built first, then the two dropped, all CONCURRENTLY, so
 * writes go on and no lookup is left without an index. PostgreSQL keeps the statistics of an indexed expression with
 * its index, and a new index has none until the table is analysed: without them the planner guesses that a transaction
 * id matches 0.5 % of the events and may walk another index instead, so the table is analysed at once (ANALYZE blocks
 * neither reads nor writes).
 */
export class EventsOneTransactionIndex1765500000000 implements MigrationInterface {
  name = 'EventsOneTransactionIndex1765500000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await createIndexConcurrently(
      q,
      'webhook_events_by_transaction',
      "webhook_events ((payload->>'transaction_id'), created_at)",
    );
    await q.query('ANALYZE webhook_events');
    await dropIndexConcurrently(q, 'webhook_events_transaction');
    await dropIndexConcurrently(q, 'webhook_events_of_transaction');
  }

  async down(q: QueryRunner): Promise<void> {
    await createIndexConcurrently(
      q,
      'webhook_events_of_transaction',
      "webhook_events (business_id, mode, (payload->>'transaction_id'))",
    );
    await createIndexConcurrently(
      q,
      'webhook_events_transaction',
      "webhook_events ((payload->>'transaction_id'), created_at) WHERE event_type LIKE 'transaction.%'",
    );
    await q.query('ANALYZE webhook_events');
    await dropIndexConcurrently(q, 'webhook_events_by_transaction');
  }
}
