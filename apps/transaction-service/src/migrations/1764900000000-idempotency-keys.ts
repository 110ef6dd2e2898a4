import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Idempotency-Key of the request that created a transaction or refund, unique per business and mode, so a retry
 * after an unknown outcome finds the first attempt instead of paying twice (ADR 0014). Built CONCURRENTLY on these busy
 * tables, hence `transaction = false`; an INVALID index from a failed build is dropped first.
 */
export class IdempotencyKeys1764900000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764900000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['transactions', 'refunds']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS idempotency_key text`);
      const invalid: unknown[] = await q.query(
        `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`,
        [`${table}_idempotency_key`],
      );
      if (invalid.length > 0) await q.query(`DROP INDEX CONCURRENTLY ${table}_idempotency_key`);
      await q.query(
        `CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS ${table}_idempotency_key
           ON ${table} (business_id, mode, idempotency_key) WHERE idempotency_key IS NOT NULL`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['transactions', 'refunds']) await q.query(`ALTER TABLE ${table} DROP COLUMN idempotency_key`);
  }
}
