import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A refund sent to a provider's refund API (DPO Pay's refundToken, Ozow's refunds): one row per
 * refund, written with the refund, so a process that dies before sending it sends it later, and
 * one that dies while the provider answers leaves it to an operator instead of sending it twice
 * (docs/going-live.md, Refunds of live payments). `state`: 'queued' (not sent yet), 'sending' (the
 * call is under way), 'pending' (the provider took it and answers later), 'final', 'unresolved'
 * (the provider's answer is unknown: an operator checks at the provider).
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
