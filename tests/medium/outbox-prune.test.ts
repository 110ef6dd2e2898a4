import { Client } from 'pg';
import pino from 'pino';
import type { Producer, ProducerBatch } from 'kafkajs';
import type { DataSource } from '@payments/database';
import { OUTBOX_PRUNE_BATCH, OutboxRelay } from '@payments/messaging';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';
import { acknowledgeAll } from '../support/kafka-acknowledgements';

/**
 * The relay deletes published rows past their retention (7 days here), oldest first, a batch a tick, so a table
 * holding days of events is never read whole at once and the relay keeps relaying while it prunes. Rows not published,
 * or published within the retention, stay wherever they sit among the old ones.
 */
describe('outbox relay: pruning published rows past their retention', () => {
  let db: MigratedDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await migratedDatabase('transaction-service', 'outbox_prune');
    ds = db.ds;
  }, 60_000);

  afterAll(async () => {
    await db?.drop();
  });

  /** `count` rows published `daysAgo` days ago (null: not published), in id order after those already there. */
  const addRows = (label: string, count: number, daysAgo: number | null) =>
    ds.query(
      `INSERT INTO outbox_events (event_id, topic, message_key, payload, created_at, published_at)
       SELECT gen_random_uuid(), 'transaction.status_changed', $1 || '-' || n, '{}',
              now() - make_interval(days => COALESCE($3::int, 8)),
              CASE WHEN $3::int IS NULL THEN NULL ELSE now() - make_interval(days => $3::int) END
         FROM generate_series(1, $2::int) AS n`,
      [label, count, daysAgo],
    );
  const left = async () =>
    Object.fromEntries(
      (
        await ds.query<{ label: string; n: string }[]>(
          `SELECT split_part(message_key, '-', 1) AS label, count(*) AS n FROM outbox_events GROUP BY 1`,
        )
      ).map((r) => [r.label, Number(r.n)]),
    );

  it('deletes old published rows a batch a tick until none is left, keeping recent and unsent ones', async () => {
    await addRows('old', OUTBOX_PRUNE_BATCH + 500, 8);
    await addRows('recent', 300, 1);
    await addRows('oldafter', 200, 8); // old again, behind recent rows in id order
    await addRows('unsent', 5, null);
    const sent: ProducerBatch[] = [];
    const producer = {
      sendBatch: async (batch: ProducerBatch) => (sent.push(batch), acknowledgeAll(batch)),
    } as unknown as Producer;
    const relay = new OutboxRelay(ds, producer, '', pino({ level: 'silent' }), async () => 1, 500, 7);

    // The first tick sends the unsent rows and deletes one batch of the oldest rows: no more.
    await relay.tick();
    expect(sent.flatMap((b) => b.topicMessages ?? []).flatMap((t) => t.messages)).toHaveLength(5);
    expect(await left()).toEqual({ old: 500, recent: 300, oldafter: 200, unsent: 5 });

    // The next deletes the rest of the old ones, those behind the recent rows included; the one after finds none.
    await relay.tick();
    expect(await left()).toEqual({ recent: 300, unsent: 5 });
    await relay.tick();
    expect(await left()).toEqual({ recent: 300, unsent: 5 });

    // Done until the next hour: rows growing old meanwhile are not looked at on every tick.
    await addRows('later', 10, 8);
    await relay.tick();
    expect(await left()).toEqual({ recent: 300, unsent: 5, later: 10 });
  });

  const freshRelay = () => {
    const producer = { sendBatch: async (batch: ProducerBatch) => acknowledgeAll(batch) } as unknown as Producer;
    return new OutboxRelay(ds, producer, '', pino({ level: 'silent' }), async () => 1, 500, 7);
  };

  it('ends a prune at a whole stretch of rows not old enough: old rows behind it wait for the next prune', async () => {
    await ds.query('DELETE FROM outbox_events');
    await addRows('recent', OUTBOX_PRUNE_BATCH, 1);
    await addRows('old', 50, 8);
    const relay = freshRelay();
    await relay.tick();
    await relay.tick();
    expect(await left()).toEqual({ recent: OUTBOX_PRUNE_BATCH, old: 50 });
  });

  it('prunes on one replica at a time: a relay finding another pruning leaves the rows to it', async () => {
    await ds.query('DELETE FROM outbox_events');
    await addRows('old', 20, 8);
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(hashtext('outbox_prune'))`);
      await freshRelay().tick();
      expect(await left()).toEqual({ old: 20 });
      await other.query(`SELECT pg_advisory_unlock(hashtext('outbox_prune'))`);
      await freshRelay().tick();
      expect(await left()).toEqual({});
    } finally {
      await other.end();
    }
  });
});
