import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A live payment's life at its provider (docs/going-live.md), written before the provider is called
 * so a payment whose initiate answer was lost is found and checked until its outcome is known.
 * `last_error` never holds a credential or a phone number.
 */
export class ProviderPayments1765100000000 implements MigrationInterface {
  name = 'ProviderPayments1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_payments (
        transaction_id bigint PRIMARY KEY REFERENCES transactions (id),
        provider text NOT NULL CHECK (provider IN ('paynow', 'dpo', 'ozow')),
        state text NOT NULL CHECK (state IN ('initiating', 'sent', 'final', 'unresolved')),
        provider_reference text,
        poll_url text,
        provider_status text,
        authorization_url text,
        authorization_code text,
        authorization_expires text,
        instructions text,
        next_check_at timestamptz,
        checks integer NOT NULL DEFAULT 0,
        not_found_checks integer NOT NULL DEFAULT 0,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      "CREATE INDEX provider_payments_due ON provider_payments (next_check_at) WHERE state IN ('initiating', 'sent')",
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE provider_payments');
  }
}
