import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `lock_token`: who holds a delivery's claim. Each claim writes a new random token, and an
 * attempt's outcome is written only by the claim whose token is still on the row. The attempt
 * number alone let a worker whose lock had expired settle a row another worker had claimed again
 * at the same attempt, clearing that holder's lock mid-send, so a third claim could send the same
 * webhook-id beside it. Nullable without a default: ADD COLUMN does not rewrite the table.
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
