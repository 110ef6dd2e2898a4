import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxTable } from '@payments/messaging';

export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE transactions (
        id bigserial PRIMARY KEY,
        public_id text NOT NULL UNIQUE,
        business_id integer NOT NULL,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        reference text NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        charges bigint NOT NULL CHECK (charges >= 0),
        total bigint NOT NULL CHECK (total = amount + charges),
        currency char(3) NOT NULL,
        email text NOT NULL,
        payment_method_type text,
        payment_method_code text,
        mobile_money_number text,
        requested_response text,
        status text NOT NULL CHECK (status IN ('pending', 'processing', 'success', 'failed')),
        message text NOT NULL,
        checkout_id text NOT NULL UNIQUE,
        success_url text,
        failure_url text,
        payment_link_id text,
        link_splits jsonb NOT NULL DEFAULT '[]'::jsonb,
        settle_at timestamptz,
        expires_at timestamptz NOT NULL,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT transactions_reference_unique UNIQUE (business_id, mode, reference)
      )`);
    await q.query('CREATE INDEX transactions_business_created ON transactions (business_id, mode, created_at DESC)');
    await q.query("CREATE INDEX transactions_due_settlement ON transactions (settle_at) WHERE status = 'processing'");
    await q.query("CREATE INDEX transactions_due_expiry ON transactions (expires_at) WHERE status = 'pending'");
    await createOutboxTable(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE outbox_events');
    await q.query('DROP TABLE transactions');
  }
}
