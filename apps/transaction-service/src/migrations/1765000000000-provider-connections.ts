import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A business's own payment-provider accounts: one row per business, mode and provider, its
 * credentials sealed by the service (AES-256-GCM, `pc1.<key id>.…`; the check keeps plaintext out
 * even if a bug tried to write it), and the masked account the API shows.
 */
export class ProviderConnections1765000000000 implements MigrationInterface {
  name = 'ProviderConnections1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_connections (
        id bigserial PRIMARY KEY,
        business_id integer NOT NULL,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        provider text NOT NULL CHECK (provider IN ('paynow', 'dpo', 'ozow')),
        credentials text NOT NULL CONSTRAINT provider_connections_credentials_sealed CHECK (credentials LIKE 'pc1.%'),
        account text NOT NULL,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT provider_connections_scope UNIQUE (business_id, mode, provider)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE provider_connections');
  }
}
