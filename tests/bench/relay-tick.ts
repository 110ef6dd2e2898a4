/**
 * The outbox relay's database side alone: per tick one new outbox row is taken, "sent" to a producer that answers
 * at once, marked and committed. Compares the relay's tick with the statement it replaced (an `UPDATE … RETURNING`
 * taking the batch with parameters), in alternating rounds: latency and CPU per tick. Needs
 * PostgreSQL only (DATABASE_URL); works in a database of its own, dropped at the end:
 *   source .local/infra.env && bash scripts/with-node.sh node scripts/ts-run.js \
 *     tests/bench/relay-tick.ts [ticks per round] [rounds]
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import type { Producer, ProducerBatch } from 'kafkajs';
import { Client } from 'pg';
import { DataSource, queryRows } from '../../libs/database/src';
import { OutboxRelay } from '../../libs/messaging/src/outbox';
import { stats, runMain } from './load';
import { acknowledgeAll } from '../support/kafka-acknowledgements';

const TICKS = Number(process.argv[2] ?? 2_000);
const ROUNDS = Number(process.argv[3] ?? 4);

const TABLE = `CREATE TABLE outbox_events (
  id bigserial PRIMARY KEY, event_id uuid NOT NULL UNIQUE, topic text NOT NULL, message_key text NOT NULL,
  payload jsonb NOT NULL, headers jsonb NOT NULL DEFAULT '{}'::jsonb, created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz)`;

/** The relay's statement as it was sent before, with parameters, after its own BEGIN. */
const TAKE_WITH_PARAMETERS = `WITH relay AS (SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked),
  batch AS (SELECT o.id FROM relay, outbox_events o WHERE relay.locked AND o.published_at IS NULL
    ORDER BY o.id LIMIT $2)
  UPDATE outbox_events o SET published_at = now() FROM batch WHERE o.id = batch.id
  RETURNING o.id, o.event_id, o.topic, o.message_key, o.payload::text AS payload, o.headers`;

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL ?? 'postgres://payments:payments@127.0.0.1:5432/postgres';
  const db = `relay_tick_${randomUUID().slice(0, 8)}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${db}`);
  const url = new URL(base);
  url.pathname = `/${db}`;
  const ds = await new DataSource({
    url: url.toString(),
    max: 2,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 10_000,
    statementTimeoutMillis: 5_000,
  }).initialize();
  try {
    await ds.query(TABLE);
    await ds.query('CREATE INDEX outbox_events_unpublished ON outbox_events (id) WHERE published_at IS NULL');
    const producer = { sendBatch: async (batch: ProducerBatch) => acknowledgeAll(batch) } as unknown as Producer;
    const relay = new OutboxRelay(ds, producer, '', pino({ level: 'silent' }), async () => 1);
    const variants: Record<string, () => Promise<unknown>> = {
      'the relay tick (now)': () => relay.tick(),
      'UPDATE … RETURNING (before)': () =>
        ds.transaction((m) => queryRows(m, TAKE_WITH_PARAMETERS, ['outbox_relay', 500])),
    };
    const insert = () =>
      ds.query(`INSERT INTO outbox_events (event_id, topic, message_key, payload) VALUES ($1, 't', 'k', '{"a":1}')`, [
        randomUUID(),
      ]);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, tick] of Object.entries(variants)) {
        const latencies: number[] = [];
        const cpu0 = process.cpuUsage();
        for (let i = 0; i < TICKS; i++) {
          await insert();
          const t0 = performance.now();
          await tick();
          latencies.push(performance.now() - t0);
        }
        const cpu = process.cpuUsage(cpu0);
        const s = stats(latencies);
        const left = await ds.query<{ n: string }[]>(
          'SELECT count(*) AS n FROM outbox_events WHERE published_at IS NULL',
        );
        console.log(
          JSON.stringify({
            round,
            variant: name,
            'tick p50/p99 ms': `${s.p50.toFixed(3)} / ${s.p99.toFixed(3)}`,
            'CPU per tick µs (incl. the insert)': Math.round((cpu.user + cpu.system) / TICKS),
            unpublished: Number(left[0].n),
          }),
        );
      }
    }
  } finally {
    await ds.destroy();
    await admin.query(`DROP DATABASE ${db}`);
    await admin.end();
  }
}

runMain(main);
