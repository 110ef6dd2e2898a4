import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events API: pages of a business's events by (created_at, id), and pruning by age. The old
 * (business_id, mode, created_at) index is covered by the new one.
 */
export class EventsApi1764500000000 implements MigrationInterface {
  name = 'EventsApi1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX webhook_events_page ON webhook_events (business_id, mode, created_at DESC, id DESC)');
    await q.query('DROP INDEX webhook_events_business');
    await q.query('CREATE INDEX webhook_events_created ON webhook_events (created_at)');
    await q.query('CREATE INDEX deliveries_event ON deliveries (event_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX deliveries_event');
    await q.query('DROP INDEX webhook_events_created');
    await q.query('CREATE INDEX webhook_events_business ON webhook_events (business_id, mode, created_at DESC)');
    await q.query('DROP INDEX webhook_events_page');
  }
}
