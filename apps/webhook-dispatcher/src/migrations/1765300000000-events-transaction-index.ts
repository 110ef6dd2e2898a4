import type { MigrationInterface, QueryRunner } from 'typeorm';

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
    const invalid: unknown[] = await q.query(
      `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = 'webhook_events_of_transaction' AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`,
    );
    if (invalid.length > 0) await q.query('DROP INDEX CONCURRENTLY webhook_events_of_transaction');
    await q.query("CREATE INDEX CONCURRENTLY IF NOT EXISTS webhook_events_of_transaction ON webhook_events (business_id, mode, (payload->>'transaction_id'))");
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS webhook_events_of_transaction');
  }
}
