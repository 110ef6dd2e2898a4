import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@payments/database';

/**
 * The events of one transaction and of its refunds (their data names the transaction), per
 * business and mode: the merchant dashboard's payment page (events.of_transaction). The older
 * `webhook_events_transaction` covers only `transaction.*` events of any business.
 *
 * Built CONCURRENTLY, as `webhook_events_recorded` is (see 1764800000000): the table takes writes
 * all the time. An INVALID index left by a failed build is dropped first, so running this again
 * rebuilds it.
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
