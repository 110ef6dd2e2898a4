import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Counting a callback's attempts in flight must not scan its whole delivery history. */
export class InFlightIndex1764100000000 implements MigrationInterface {
  name = 'InFlightIndex1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX deliveries_in_flight ON deliveries (callback_id) WHERE locked_until IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX deliveries_in_flight');
  }
}
