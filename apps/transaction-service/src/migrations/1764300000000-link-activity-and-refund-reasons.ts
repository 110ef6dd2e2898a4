import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment links can be deactivated (kept, never deleted: their transactions name them), and
 * refunds carry the merchant's free-text reason. Links are listed newest first per business and mode.
 */
export class LinkActivityAndRefundReasons1764300000000 implements MigrationInterface {
  name = 'LinkActivityAndRefundReasons1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payment_links ADD COLUMN active boolean NOT NULL DEFAULT true');
    await q.query('ALTER TABLE payment_links ADD COLUMN deactivated_at timestamptz');
    await q.query('ALTER TABLE payment_links ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()');
    await q.query('CREATE INDEX payment_links_listing ON payment_links (business_id, mode, created_at DESC, id DESC)');
    await q.query('ALTER TABLE refunds ADD COLUMN reason text CHECK (char_length(reason) <= 500)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE refunds DROP COLUMN reason');
    await q.query('DROP INDEX payment_links_listing');
    await q.query('ALTER TABLE payment_links DROP COLUMN updated_at');
    await q.query('ALTER TABLE payment_links DROP COLUMN deactivated_at');
    await q.query('ALTER TABLE payment_links DROP COLUMN active');
  }
}
