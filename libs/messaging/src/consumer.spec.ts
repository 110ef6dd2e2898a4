import type { EachBatchPayload, Kafka, KafkaMessage, Producer } from 'kafkajs';
import pino from 'pino';
import type { DataSource, EntityManager } from '@payments/database';
import { transactionEvent } from '@payments/contracts/fixtures';
import { IdempotentConsumer } from './consumer';

const envelope = (id: string) => ({
  id,
  type: 'transaction.status_changed',
  version: 1,
  occurred_at: '2026-01-31T12:00:00.000Z',
  producer: 'spec',
  mode: 'test',
  business_id: 1,
  correlation_id: null,
  data: transactionEvent('pending', null),
});

/** A consumer on a fake Kafka: `eachBatch` is what kafkajs would call for each partition's batch. */
async function consumerOn(ds: DataSource) {
  let eachBatch: ((payload: EachBatchPayload) => Promise<void>) | undefined;
  const kafka = {
    consumer: () => ({
      events: { CRASH: 'consumer.crash' },
      on: () => undefined,
      connect: async () => undefined,
      subscribe: async () => undefined,
      run: async (config: { eachBatch: typeof eachBatch }) => void (eachBatch = config.eachBatch),
      disconnect: async () => undefined,
    }),
  } as unknown as Kafka;
  const applied: string[] = [];
  const consumer = new IdempotentConsumer(
    kafka,
    ds,
    {} as Producer,
    {
      group: 'spec-group',
      topicPrefix: 'p.',
      sessionTimeoutMs: 10_000,
      handlers: { 'transaction.status_changed': async (event) => void applied.push(event.id) },
    },
    pino({ level: 'silent' }),
  );
  await consumer.start();
  const resolved: string[] = [];
  const deliver = (ids: string[]) =>
    eachBatch!({
      batch: {
        topic: 'p.transaction.status_changed',
        partition: 0,
        messages: ids.map(
          (id, i) =>
            ({
              offset: String(i),
              key: null,
              value: Buffer.from(JSON.stringify(envelope(id))),
              headers: {},
            }) as unknown as KafkaMessage,
        ),
      },
      resolveOffset: (offset: string) => void resolved.push(offset),
      heartbeat: async () => undefined,
      isRunning: () => true,
      isStale: () => false,
      uncommittedOffsets: () => ({ topics: [] }),
      commitOffsetsIfNecessary: async () => undefined,
    } as unknown as EachBatchPayload);
  return { deliver, applied, resolved };
}

describe('IdempotentConsumer', () => {
  it('while the database is unreachable, retries a batch whole after a back-off, not one event at a time', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const statements: string[] = [];
    let transactions = 0;
    const ds = {
      transaction: async <T>(work: (m: EntityManager) => Promise<T>): Promise<T> => {
        if (++transactions <= 2) throw refused;
        return work({
          query: async (sql: string, params: unknown[]) => {
            statements.push(sql);
            return (params[1] as string[]).map((event_id) => ({ event_id }));
          },
        } as EntityManager);
      },
    } as unknown as DataSource;
    const { deliver, applied, resolved } = await consumerOn(ds);

    const started = Date.now();
    await deliver(['a', 'b', 'c']);

    expect(transactions).toBe(3);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/unnest/);
    expect(applied).toEqual(['a', 'b', 'c']);
    expect(resolved).toEqual(['0', '1', '2']);
    // Two back-offs (400 ms, then 800 ms) before the third try.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_150);
  });
});

describe('IdempotentConsumer after a crash the Kafka client does not restart', () => {
  it('starts a new consumer of the group, and none once stopping', async () => {
    jest.useFakeTimers();
    try {
      const crashListeners: Array<(e: { payload: { error: Error; restart: boolean } }) => void> = [];
      let created = 0;
      const kafka = {
        consumer: () => {
          created += 1;
          return {
            events: { CRASH: 'consumer.crash' },
            on: (_event: string, listener: (e: { payload: { error: Error; restart: boolean } }) => void) =>
              void crashListeners.push(listener),
            connect: async () => undefined,
            subscribe: async () => undefined,
            run: async () => undefined,
            disconnect: async () => undefined,
          };
        },
      } as unknown as Kafka;
      const consumer = new IdempotentConsumer(
        kafka,
        {} as DataSource,
        {} as Producer,
        { group: 'g', topicPrefix: 'p.', sessionTimeoutMs: 10_000, handlers: {} },
        pino({ level: 'silent' }),
      );
      await consumer.start();
      expect(created).toBe(1);
      // A crash kafkajs restarts itself needs nothing from us.
      crashListeners[0]({ payload: { error: new Error('retriable'), restart: true } });
      await jest.advanceTimersByTimeAsync(5_000);
      expect(created).toBe(1);
      // One it gives up on: a new consumer after a second.
      crashListeners[0]({
        payload: { error: new Error('relation "processed_events" does not exist'), restart: false },
      });
      await jest.advanceTimersByTimeAsync(999);
      expect(created).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(created).toBe(2);
      // A crash of the replaced consumer, or one while stopping, starts nothing.
      crashListeners[0]({ payload: { error: new Error('old'), restart: false } });
      await consumer.stop();
      crashListeners[1]({ payload: { error: new Error('late'), restart: false } });
      await jest.advanceTimersByTimeAsync(5_000);
      expect(created).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
