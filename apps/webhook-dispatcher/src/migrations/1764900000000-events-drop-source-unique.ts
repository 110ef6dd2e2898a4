import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drops `UNIQUE (source_event_id, event_type)`: the event id is a hash of that pair, so the primary key already rejects
 * duplicates. No read uses it, and it cost a b-tree insert and its WAL per row.
 */
export class EventsDropSourceUnique1764900000000 implements MigrationInterface {
  name = 'EventsDropSourceUnique1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_events DROP CONSTRAINT IF EXISTS webhook_events_source_event_id_event_type_key');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_source_event_id_event_type_key
       UNIQUE (source_event_id, event_type)`,
    );
  }
}
