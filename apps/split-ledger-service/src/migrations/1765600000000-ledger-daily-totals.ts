import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Daily payment totals for the dashboard overview, which cannot sum a day per page load: triggers on the ledger's
 * copies append changes for DailyTotalsCompactor (docs/dashboard.md). Creating the triggers locks the copies until this
 * commits, so each existing copy is counted exactly once.
 */
export class LedgerDailyTotals1765600000000 implements MigrationInterface {
  name = 'LedgerDailyTotals1765600000000';

  async up(q: QueryRunner): Promise<void> {
    const columns = `business_id integer NOT NULL,
        mode text NOT NULL,
        day date NOT NULL,
        currency char(3) NOT NULL,
        payments bigint NOT NULL,
        succeeded bigint NOT NULL,
        succeeded_amount bigint NOT NULL`;
    await q.query(`CREATE TABLE ledger_daily_totals (${columns}, PRIMARY KEY (business_id, mode, day, currency))`);
    await q.query(`CREATE TABLE ledger_daily_totals_changes (id bigserial PRIMARY KEY, ${columns})`);
    await q.query(
      'CREATE INDEX ledger_daily_totals_changes_key ON ledger_daily_totals_changes (business_id, mode, day)',
    );
    // Named parts, not re-wrapped text: a function body is stored as written, so it stays the same
    // in databases migrated before and after this file was reformatted.
    const changeColumns = 'business_id, mode, day, currency, payments, succeeded, succeeded_amount';
    const updatedDay = "(n.transaction_created_at AT TIME ZONE 'UTC')::date";
    await q.query(`
      CREATE FUNCTION ledger_daily_totals_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ledger_daily_totals_changes (${changeColumns})
        SELECT business_id, mode, (transaction_created_at AT TIME ZONE 'UTC')::date, currency, count(*),
               count(*) FILTER (WHERE status = 'success'), COALESCE(sum(amount) FILTER (WHERE status = 'success'), 0)
          FROM inserted GROUP BY 1, 2, 3, 4;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION ledger_daily_totals_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ledger_daily_totals_changes (${changeColumns})
        SELECT n.business_id, n.mode, ${updatedDay}, n.currency, 0, count(*), sum(n.amount)
          FROM updated n JOIN previous o ON o.id = n.id
         WHERE n.status = 'success' AND o.status <> 'success'
         GROUP BY 1, 2, 3, 4;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER ledger_daily_totals_on_insert AFTER INSERT ON ledger_transactions
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_daily_totals_inserted()`);
    await q.query(`CREATE TRIGGER ledger_daily_totals_on_update AFTER UPDATE ON ledger_transactions
      REFERENCING OLD TABLE AS previous NEW TABLE AS updated
      FOR EACH STATEMENT EXECUTE FUNCTION ledger_daily_totals_updated()`);
    await q.query(`
      INSERT INTO ledger_daily_totals (business_id, mode, day, currency, payments, succeeded, succeeded_amount)
      SELECT business_id, mode, (transaction_created_at AT TIME ZONE 'UTC')::date, currency, count(*),
             count(*) FILTER (WHERE status = 'success'), COALESCE(sum(amount) FILTER (WHERE status = 'success'), 0)
        FROM ledger_transactions GROUP BY 1, 2, 3, 4`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER ledger_daily_totals_on_update ON ledger_transactions');
    await q.query('DROP TRIGGER ledger_daily_totals_on_insert ON ledger_transactions');
    await q.query('DROP FUNCTION ledger_daily_totals_updated()');
    await q.query('DROP FUNCTION ledger_daily_totals_inserted()');
    await q.query('DROP TABLE ledger_daily_totals_changes');
    await q.query('DROP TABLE ledger_daily_totals');
  }
}
