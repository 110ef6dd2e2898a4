import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createInboxTable, createOutboxTable } from '@payments/messaging';

export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger_transactions (
        id bigint PRIMARY KEY,
        public_id text NOT NULL UNIQUE,
        business_id integer NOT NULL,
        mode text NOT NULL,
        amount bigint NOT NULL,
        currency char(3) NOT NULL,
        status text NOT NULL,
        version integer NOT NULL,
        link_splits jsonb NOT NULL DEFAULT '[]'::jsonb,
        transaction_created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await createInboxTable(q);
    await createOutboxTable(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE outbox_events');
    await q.query('DROP TABLE processed_events');
    await q.query('DROP TABLE ledger_transactions');
  }
}
