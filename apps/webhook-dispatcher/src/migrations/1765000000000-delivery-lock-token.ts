import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `lock_token`: who holds a delivery's claim. Each claim writes a new random token beside
 * `locked_until`, and an attempt's outcome (success, failure, ending it unsent, letting go) is
 * written only by the claim whose token is still on the row. Checking the attempt number alone let
 * a worker whose lock had expired, and whose delivery another worker had claimed again at the same
 * attempt, settle the row under the new holder: it cleared the holder's lock while that holder was
 * still sending, so a third claim could send the same webhook-id beside it.
 *
 * A nullable column without a default: ADD COLUMN is a catalogue change, the table is not rewritten.
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
