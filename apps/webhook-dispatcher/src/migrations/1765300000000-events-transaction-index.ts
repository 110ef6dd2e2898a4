import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@payments/database';

/**
 * The events of one transaction and its refunds per business and mode, for the dashboard's
 * payment page (events.of_transaction); `webhook_events_transaction` covers only `transaction.*`
 * events of any business. Built CONCURRENTLY as in 1764800000000, an INVALID leftover dropped first.
 */
export class EventsTransactionIndex1765300000000 implements MigrationInterface {
  name = 'EventsTransactionIndex1765300000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await createIndexConcurrently(
      q,
      'webhook_events_of_transaction',
      "webhook_events (business_id, mode, (payload->>'transaction_id'))",
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await dropIndexConcurrently(q, 'webhook_events_of_transaction');
  }
}
