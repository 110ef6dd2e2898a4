import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@payments/database';

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
    await createIndexConcurrently(
      q,
      'ledger_entries_of_transaction_public_id',
      'ledger_entries (transaction_public_id)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await dropIndexConcurrently(q, 'ledger_entries_of_transaction_public_id');
  }
}
