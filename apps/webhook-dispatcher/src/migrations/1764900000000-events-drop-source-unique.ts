import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drops `UNIQUE (source_event_id, event_type)` of `webhook_events`: a catalogue event's id is a
 * function of that pair (`webhookEventId`, a hash of source event id and event name), so the
 * primary key already rejects the same pair twice, and `ON CONFLICT DO NOTHING` skips it there.
 * No query reads by source event (EXPLAIN of every `webhook_events` read uses the primary key or
 * the page, created, recorded and transaction indexes). The index cost one more b-tree insert (and
 * its WAL) for each of the two or three rows every payment event writes.
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
