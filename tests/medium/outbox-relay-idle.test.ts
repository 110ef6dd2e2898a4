import { Client } from 'pg';
import pino from 'pino';
import type { Producer, ProducerBatch } from 'kafkajs';
import type { DataSource } from '@payments/database';
import { OutboxRelay } from '@payments/messaging';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';
import { acknowledgeAll } from '../support/kafka-acknowledgements';

/**
 * What a relay's tick tells its PollingWorker, on PostgreSQL: an empty outbox under the relay's lock lets it sleep its
 * idle maximum (`Infinity`: no known work); another relay holding the lock, or a part batch sent, has it look again
 * after the interval (`false`). The batch's statement says whether it held the lock also when it found no row.
 */
describe('outbox relay: what a tick says about the next', () => {
  let db: MigratedDatabase;
  let ds: DataSource;
  let other: Client;
  const sent: ProducerBatch[] = [];
  let relay: OutboxRelay;

  beforeAll(async () => {
    db = await migratedDatabase('transaction-service', 'relay_idle');
    ds = db.ds;
    other = new Client({ connectionString: db.url });
    await other.connect();
    const producer = {
      sendBatch: async (batch: ProducerBatch) => (sent.push(batch), acknowledgeAll(batch)),
    } as unknown as Producer;
    relay = new OutboxRelay(ds, producer, '', pino({ level: 'silent' }), async () => 6, 3, 7);
    // The first tick prunes (an empty table ends the prune at once) and so looks again after the interval.
    await expect(relay.tick()).resolves.toBe(false);
  }, 60_000);

  afterAll(async () => {
    await other?.end();
    await db?.drop();
  });

  const addEvents = (count: number) =>
    ds.query(
      `INSERT INTO outbox_events (event_id, topic, message_key, payload)
       SELECT gen_random_uuid(), 'transaction.status_changed', 'key-' || n, jsonb_build_object('n', n)
         FROM generate_series(1, $1::int) AS n`,
      [count],
    );
  const messages = () => sent.flatMap((b) => b.topicMessages ?? []).flatMap((t) => t.messages);
  const unsent = async () =>
    Number(
      (await ds.query<{ n: string }[]>(`SELECT count(*) AS n FROM outbox_events WHERE published_at IS NULL`))[0].n,
    );

  it('an empty outbox: no known work', async () => {
    await expect(relay.tick()).resolves.toBe(Infinity);
    expect(messages()).toHaveLength(0);
  });

  it('another relay at work: sends nothing and looks again after the interval', async () => {
    await addEvents(2);
    await other.query(`SELECT pg_advisory_lock(hashtext('outbox_relay'))`);
    try {
      await expect(relay.tick()).resolves.toBe(false);
      expect(messages()).toHaveLength(0);
      expect(await unsent()).toBe(2);
    } finally {
      await other.query(`SELECT pg_advisory_unlock(hashtext('outbox_relay'))`);
    }
  });

  it('a full batch: at once; a part batch: the interval; then an empty outbox: no known work', async () => {
    await addEvents(2); // four unsent, batches of three
    await expect(relay.tick()).resolves.toBe(true);
    await expect(relay.tick()).resolves.toBe(false);
    expect(messages().map((m) => JSON.parse(String(m.value)).n)).toEqual([1, 2, 1, 2]);
    expect(await unsent()).toBe(0);
    await expect(relay.tick()).resolves.toBe(Infinity);
    expect(messages()).toHaveLength(4);
  });
});
