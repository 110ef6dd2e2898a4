import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The origins a business's public-key payments may redirect the customer to (success_url, failure_url). */
export class RedirectOrigins1764000000000 implements MigrationInterface {
  name = 'RedirectOrigins1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE businesses ADD COLUMN redirect_origins text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE businesses DROP COLUMN redirect_origins');
  }
}
