import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchant `metadata` and `description` on transactions, refunds and payment links. The checks are
 * a last guard behind the API's rules (@payments/domain metadata.ts); existing rows read as `{}`
 * and null, as the API documents.
 */
export class MetadataAndDescriptions1764600000000 implements MigrationInterface {
  name = 'MetadataAndDescriptions1764600000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['transactions', 'refunds', 'payment_links']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'
        CONSTRAINT ${table}_metadata_object CHECK (jsonb_typeof(metadata) = 'object')`);
    }
    for (const table of ['transactions', 'refunds']) {
      await q.query(
        `ALTER TABLE ${table} ADD COLUMN description text
          CONSTRAINT ${table}_description_length CHECK (char_length(description) <= 1000)`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['transactions', 'refunds']) await q.query(`ALTER TABLE ${table} DROP COLUMN description`);
    for (const table of ['transactions', 'refunds', 'payment_links'])
      await q.query(`ALTER TABLE ${table} DROP COLUMN metadata`);
  }
}
