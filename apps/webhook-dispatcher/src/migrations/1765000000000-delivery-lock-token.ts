import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `lock_token`: a new random token per claim; only the claim whose token is still on the row writes the attempt's
 * outcome. The attempt number alone let a worker whose lock expired clear a newer holder's lock mid-send, so a third
 * claim could send the same webhook beside it. Nullable without a default, so ADD COLUMN does not rewrite the table.
 */
export class DeliveryLockToken1765000000000 implements MigrationInterface {
  name = 'DeliveryLockToken1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE deliveries ADD COLUMN lock_token uuid');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE deliveries DROP COLUMN lock_token');
  }
}
