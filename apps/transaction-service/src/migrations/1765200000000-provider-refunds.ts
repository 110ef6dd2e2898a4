import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A refund sent to a provider's refund API, one row written with the refund: a process that dies
 * before sending it sends it later; one that dies while the provider answers leaves it 'unresolved'
 * for an operator instead of sending it twice (docs/going-live.md, Refunds of live payments).
 */
export class ProviderRefunds1765200000000 implements MigrationInterface {
  name = 'ProviderRefunds1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_refunds (
        refund_id bigint PRIMARY KEY REFERENCES refunds (id),
        provider text NOT NULL CHECK (provider IN ('paynow', 'dpo', 'ozow')),
        state text NOT NULL CHECK (state IN ('queued', 'sending', 'pending', 'final', 'unresolved')),
        provider_refund_id text,
        provider_status text,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      "CREATE INDEX provider_refunds_unsent ON provider_refunds (updated_at) WHERE state IN ('queued', 'sending')",
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE provider_refunds');
  }
}
