import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Idempotency-Key of the request that created a transaction or a refund (a hash bound to the
 * key type, the key and the request's parameters, set by the gateway): unique per business and
 * mode, so a retry of a request whose outcome was unknown finds what the first attempt did instead
 * of creating a second payment or refund (docs/decisions/0014-deadlines-and-unknown-outcomes.md).
 */
export class IdempotencyKeys1764900000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764900000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['transactions', 'refunds']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN idempotency_key text`);
      await q.query(`CREATE UNIQUE INDEX ${table}_idempotency_key ON ${table} (business_id, mode, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['transactions', 'refunds']) await q.query(`ALTER TABLE ${table} DROP COLUMN idempotency_key`);
  }
}
