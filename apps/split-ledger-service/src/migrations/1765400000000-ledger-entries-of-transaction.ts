import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One transaction's entries by its public id (ledger.of_transaction: the merchant dashboard's
 * payment page). The older `ledger_entries_transaction` is by the internal id, which the gateway
 * never sees.
 *
 * Built CONCURRENTLY: the table takes writes all the time. An INVALID index left by a failed build
 * is dropped first, so running this again rebuilds it.
 */
export class LedgerEntriesOfTransaction1765400000000 implements MigrationInterface {
  name = 'LedgerEntriesOfTransaction1765400000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    const invalid: unknown[] = await q.query(
      `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = 'ledger_entries_of_transaction_public_id' AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`,
    );
    if (invalid.length > 0) await q.query('DROP INDEX CONCURRENTLY ledger_entries_of_transaction_public_id');
    await q.query('CREATE INDEX CONCURRENTLY IF NOT EXISTS ledger_entries_of_transaction_public_id ON ledger_entries (transaction_public_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS ledger_entries_of_transaction_public_id');
  }
}
