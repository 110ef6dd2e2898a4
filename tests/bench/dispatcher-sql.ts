/**
 * The dispatcher's replay work without Kafka: the real inbox statement and WebhookEventsHandler on a migrated
 * dispatcher database, applied in transactions of BATCH events, PARALLEL of them at once; variants interleaved so the
 * machine's load hits them alike. Options: BENCH_EVENTS (30000), BENCH_ROUNDS (2), BENCH_VARIANTS
 * (`1500x1,500x3,500x1`: BATCHxPARALLEL), BENCH_INDEXES=both (also with the webhook_events indexes before the events
 * API), BENCH_TIMES=same,distinct (every event at one instant, as the replay bench makes them, or a millisecond apart),
 * BENCH_STATEMENTS=1 (database time per event of each statement).
 * `source .local/infra.env && node scripts/ts-run.js tests/bench/dispatcher-sql.ts`
 */
import { DataSource, type EntityManager, type Sql, sqlText } from '@payments/database';
import { Topics, type TransactionStatusChangedEvent } from '@payments/contracts';
import { DeliveryStore } from '../../apps/webhook-dispatcher/src/delivery/delivery-store';
import type { FirstAttempts } from '../../apps/webhook-dispatcher/src/delivery/first-attempts';
import { WebhookEventsHandler } from '../../apps/webhook-dispatcher/src/events/transaction-events.handler';
import { Stack } from '../support/stack';
import { runMain } from './load';
import { replayEnvelope } from '../support/synthetic-events';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 30_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

function history(count: number, distinct: boolean): TransactionStatusChangedEvent[] {
  const base = Date.now() - count;
  return Array.from({ length: count }, (_, i) => replayEnvelope(i, new Date(distinct ? base + i : base).toISOString()));
}

async function main(): Promise<void> {
  const stack = await Stack.start(['webhook-dispatcher'], { LOG_LEVEL: 'error' }, { migrationJobs: true });
  await stack.app('webhook-dispatcher').stop();
  const url = new URL(stack.infra.DATABASE_URL);
  url.pathname = `/${stack.dbName('webhook-dispatcher')}`;
  const ds = await new DataSource({
    url: url.toString(),
    max: 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 10000,
    statementTimeoutMillis: 60000,
  }).initialize();
  const first = {
    accepting: () => false,
    dispatch: () => undefined,
    wakeQueue: () => undefined,
  } as unknown as FirstAttempts;
  const handler = new WebhookEventsHandler(new DeliveryStore(ds), first);
  const group = 'webhook-dispatcher';
  const topic = `${stack.topicPrefix}${Topics.TransactionStatusChanged}`;

  const spent = new Map<string, number>();
  const timed = (m: EntityManager): EntityManager => ({
    query: async (sql: Sql, params?: unknown[]) => {
      const t = performance.now();
      try {
        return await m.query(sql, params);
      } finally {
        const key = sqlText(sql).replace(/\s+/g, ' ').slice(0, 40);
        spent.set(key, (spent.get(key) ?? 0) + performance.now() - t);
      }
    },
  });
  const apply = async (events: TransactionStatusChangedEvent[]) =>
    ds.transaction(async (raw: EntityManager) => {
      const m = timed(raw);
      const inserted: { event_id: string }[] = await m.query(
        'INSERT INTO processed_events (consumer_group, event_id, topic) ' +
          'SELECT $1, unnest($2::text[]), unnest($3::text[]) ON CONFLICT DO NOTHING RETURNING event_id',
        [group, events.map((e) => e.id), events.map(() => topic)],
      );
      const fresh = new Set(inserted.map((r) => r.event_id));
      await handler.onTransactions(
        events.filter((e) => fresh.has(e.id)),
        m,
      );
    });

  const run = async (batch: number, parallel: number, distinct: boolean): Promise<number> => {
    await ds.query('TRUNCATE processed_events, webhook_events, deliveries CASCADE');
    await ds.query('VACUUM ANALYZE webhook_events');
    const events = history(EVENTS, distinct);
    const chunks: TransactionStatusChangedEvent[][] = [];
    for (let i = 0; i < events.length; i += batch) chunks.push(events.slice(i, i + batch));
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        for (let c = chunks.shift(); c; c = chunks.shift()) await apply(c);
      }),
    );
    return EVENTS / ((performance.now() - t0) / 1000);
  };

  const variants: [string, number, number][] = (process.env.BENCH_VARIANTS ?? '1500x1,500x3,500x1')
    .split(',')
    .map((v) => {
      const [b, p] = v.split('x').map(Number);
      return [v, b, p];
    });
  const indexes = process.env.BENCH_INDEXES === 'both' ? ['now', 'old'] : ['now'];
  for (let r = 0; r < ROUNDS; r++) {
    for (const ix of indexes) {
      if (ix === 'old') {
        await ds.query('DROP INDEX IF EXISTS webhook_events_page');
        await ds.query('DROP INDEX IF EXISTS webhook_events_created');
        await ds.query(
          'CREATE INDEX IF NOT EXISTS webhook_events_business ON webhook_events (business_id, mode, created_at DESC)',
        );
      } else {
        await ds.query('DROP INDEX IF EXISTS webhook_events_business');
        await ds.query(
          'CREATE INDEX IF NOT EXISTS webhook_events_page ' +
            'ON webhook_events (business_id, mode, created_at DESC, id DESC)',
        );
        await ds.query('CREATE INDEX IF NOT EXISTS webhook_events_created ON webhook_events (created_at)');
      }
      for (const times of (process.env.BENCH_TIMES ?? 'same').split(',')) {
        for (const [name, batch, parallel] of variants) {
          const rate = await run(batch, parallel, times === 'distinct');
          console.log(`round ${r} indexes=${ix} times=${times} ${name}: ${rate.toFixed(0)} events/s`);
          if (process.env.BENCH_STATEMENTS)
            console.log([...spent].map(([k, v]) => `  ${((v / EVENTS) * 1000).toFixed(1)} µs/event  ${k}`).join('\n'));
          spent.clear();
        }
      }
    }
  }
  await ds.destroy();
  await stack.stop();
}

runMain(main);
