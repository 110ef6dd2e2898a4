import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@payments/database';

/**
 * One transaction's entries by its public id, for the dashboard's payment page (ledger.of_transaction):
 * `ledger_entries_transaction` is by the internal id, which the gateway never sees. Built
 * CONCURRENTLY (a busy table), an INVALID leftover of a failed build dropped first.
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
