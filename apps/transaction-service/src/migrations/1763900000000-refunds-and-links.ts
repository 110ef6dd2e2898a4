import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RefundsAndLinks1763900000000 implements MigrationInterface {
  name = 'RefundsAndLinks1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE refunds (
        id bigserial PRIMARY KEY,
        public_id text NOT NULL UNIQUE,
        transaction_id bigint NOT NULL REFERENCES transactions (id),
        business_id integer NOT NULL,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        amount bigint NOT NULL CHECK (amount > 0),
        currency char(3) NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
        message text NOT NULL,
        settle_at timestamptz,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX refunds_transaction ON refunds (transaction_id)');
    await q.query("CREATE INDEX refunds_due_settlement ON refunds (settle_at) WHERE status = 'pending'");
    await q.query(`
      CREATE TABLE payment_links (
        id bigserial PRIMARY KEY,
        public_id text NOT NULL UNIQUE,
        business_id integer NOT NULL,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        amount bigint NOT NULL CHECK (amount > 0),
        charges bigint NOT NULL CHECK (charges >= 0),
        currency char(3) NOT NULL,
        description text NOT NULL,
        splits jsonb NOT NULL DEFAULT '[]'::jsonb,
        success_url text,
        failure_url text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX transactions_link ON transactions (payment_link_id) WHERE payment_link_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX transactions_link');
    await q.query('DROP TABLE payment_links');
    await q.query('DROP TABLE refunds');
  }
}
