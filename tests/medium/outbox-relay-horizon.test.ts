import { Client } from 'pg';
import pino from 'pino';
import type { Producer, ProducerBatch } from 'kafkajs';
import type { DataSource } from '@payments/database';
import { OutboxRelay } from '@payments/messaging';
import { waitFor } from '../support/wait';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';
import { acknowledgeAll } from '../support/kafka-acknowledgements';

/**
 * The outbox relay waits for Kafka while its transaction is open. It must hold no transaction id (and no row lock)
 * meanwhile: a transaction id held across the send holds back every horizon PostgreSQL keeps by its oldest running
 * writer — vacuum's, and the snapshot xmin the events API's recorded order reads. Runs the relay against a real
 * database with a producer that answers only when the test lets it.
 */
describe('outbox relay: nothing held while the batch is being sent', () => {
  let db: MigratedDatabase;
  let ds: DataSource;
  let observer: Client;

  beforeAll(async () => {
    db = await migratedDatabase('transaction-service', 'relay_horizon');
    ds = db.ds;
    observer = new Client({ connectionString: db.url });
    await observer.connect();
  }, 60_000);

  afterAll(async () => {
    await observer?.end();
    await db?.drop();
  });

  const addEvent = (key: string) =>
    ds.query(
      `INSERT INTO outbox_events (event_id, topic, message_key, payload) ` +
        `VALUES (gen_random_uuid(), 'transaction.status_changed', $1, '{}')`,
      [key],
    );
  const unpublished = async () =>
    Number((await observer.query(`SELECT count(*) AS n FROM outbox_events WHERE published_at IS NULL`)).rows[0].n);
  /** The relay's backend while it waits in its open transaction. */
  const waitingRelay = async () =>
    (
      await observer.query(
        `SELECT backend_xid::text AS xid FROM pg_stat_activity ` +
          `WHERE datname = $1 AND state = 'idle in transaction' AND pid <> pg_backend_pid()`,
        [db.name],
      )
    ).rows as { xid: string | null }[];

  function gatedProducer(outcome: 'ok' | 'fail') {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const sent: unknown[] = [];
    const producer = {
      sendBatch: async (batch: ProducerBatch) => {
        sent.push(batch);
        await gate;
        if (outcome === 'fail') throw new Error('broker unavailable');
        return acknowledgeAll(batch);
      },
    } as unknown as Producer;
    return { producer, open, sent };
  }

  it('holds no transaction id while it waits for Kafka, and marks the rows only once they are sent', async () => {
    await addEvent('txn_a');
    const { producer, open, sent } = gatedProducer('ok');
    const tick = new OutboxRelay(ds, producer, '', pino({ level: 'silent' }), async () => 1).tick();
    try {
      const [relay] = await waitFor('the relay waiting for Kafka in its open transaction', async () => {
        const rows = await waitingRelay();
        return sent.length === 1 && rows.length === 1 ? rows : undefined;
      });
      expect(relay.xid).toBeNull();
      expect(await unpublished()).toBe(1);
    } finally {
      open();
      await tick;
    }
    expect(await unpublished()).toBe(0);
  });

  it('marks nothing when the send fails', async () => {
    await addEvent('txn_b');
    const { producer, open } = gatedProducer('fail');
    const tick = new OutboxRelay(ds, producer, '', pino({ level: 'silent' }), async () => 1).tick();
    open();
    await expect(tick).rejects.toThrow('broker unavailable');
    expect(await unpublished()).toBe(1);
  });
});
