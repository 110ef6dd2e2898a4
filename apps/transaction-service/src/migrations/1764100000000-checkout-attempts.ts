import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One transaction per payment-link page view: a double submit of the same page pays once. */
export class CheckoutAttempts1764100000000 implements MigrationInterface {
  name = 'CheckoutAttempts1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE transactions ADD COLUMN checkout_attempt text');
    await q.query(
      `CREATE UNIQUE INDEX transactions_link_attempt ON transactions (payment_link_id, checkout_attempt)
        WHERE checkout_attempt IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX transactions_link_attempt');
    await q.query('ALTER TABLE transactions DROP COLUMN checkout_attempt');
  }
}
