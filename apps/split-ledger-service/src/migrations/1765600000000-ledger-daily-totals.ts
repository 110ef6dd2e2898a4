import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments and successful volume per business, mode, UTC day of creation and currency: the
 * merchant dashboard's overview, which cannot sum a day of transactions on every page load. The
 * ledger's consumer adds to it in the transaction that changes its copies (TransactionCopyStore).
 *
 * The existing copies are counted here, with the table locked against writes for the count, so
 * no copy is counted twice or missed at that point. A replica of the previous version still
 * running during the rollout does not add to it; docs/dashboard.md says so.
 */
export class LedgerDailyTotals1765600000000 implements MigrationInterface {
  name = 'LedgerDailyTotals1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger_daily_totals (
        business_id integer NOT NULL,
        mode text NOT NULL,
        day date NOT NULL,
        currency char(3) NOT NULL,
        payments bigint NOT NULL,
        succeeded bigint NOT NULL,
        succeeded_amount bigint NOT NULL,
        PRIMARY KEY (business_id, mode, day, currency)
      )`);
    await q.query('LOCK TABLE ledger_transactions IN SHARE MODE');
    await q.query(`
      INSERT INTO ledger_daily_totals (business_id, mode, day, currency, payments, succeeded, succeeded_amount)
      SELECT business_id, mode, (transaction_created_at AT TIME ZONE 'UTC')::date, currency, count(*),
             count(*) FILTER (WHERE status = 'success'), COALESCE(sum(amount) FILTER (WHERE status = 'success'), 0)
        FROM ledger_transactions GROUP BY 1, 2, 3, 4`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE ledger_daily_totals');
  }
}
