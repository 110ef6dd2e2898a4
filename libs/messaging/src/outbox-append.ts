import type { EntityManager, PreparedStatement } from '@payments/database';
import { OUTBOX_INSERT_COLUMNS, buildEnvelope, outboxRecord, type NewEvent } from './outbox';

/** Several outbox rows from one JSON document, inserted in the order given (the relay publishes in id order). */
const APPEND_MANY: PreparedStatement = {
  name: 'outbox_append_many',
  text: `INSERT INTO outbox_events (${OUTBOX_INSERT_COLUMNS})
         SELECT ${OUTBOX_INSERT_COLUMNS}
           FROM jsonb_to_recordset($1::jsonb)
                AS e(n integer, event_id uuid, topic text, message_key text, payload jsonb, headers jsonb)
          ORDER BY n`,
};

/**
 * Appends events to the outbox in one statement, inside the caller's transaction: published if and
 * only if it commits, in this order.
 */
export async function appendEventsToOutbox(manager: EntityManager, events: NewEvent<unknown>[]): Promise<void> {
  if (events.length === 0) return;
  const records = events.map((event, n) => ({ n, ...outboxRecord(event, buildEnvelope(event)) }));
  await manager.query(APPEND_MANY, [JSON.stringify(records)]);
}
