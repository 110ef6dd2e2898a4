import type { EachBatchPayload, Kafka, KafkaMessage, Producer } from 'kafkajs';
import pino from 'pino';
import { type DataSource, type EntityManager, type Sql, sqlText } from '@payments/database';
import { encodeReplayBundle, formatBundleHeader, formatReplayOrigin, ReplayHeaders } from '@payments/contracts';
import { transactionEvent } from '@payments/contracts/fixtures';
import { IdempotentConsumer } from './consumer';
import type { ConsumerOptions } from './consumer-options';

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
async function consumerOn(ds: DataSource, options: Partial<ConsumerOptions> = {}, producer = {} as Producer) {
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
    producer,
    {
      group: 'spec-group',
      topicPrefix: 'p.',
      sessionTimeoutMs: 10_000,
      handlers: { 'transaction.status_changed': async (event) => void applied.push(event.id) },
      ...options,
    },
    pino({ level: 'silent' }),
  );
  await consumer.start();
  const resolved: string[] = [];
  const deliver = (ids: string[]) =>
    deliverBatch(
      'p.transaction.status_changed',
      ids.map(
        (id, i) =>
          ({
            offset: String(i),
            key: null,
            value: Buffer.from(JSON.stringify(envelope(id))),
            headers: {},
          }) as unknown as KafkaMessage,
      ),
    );
  const deliverBatch = (topic: string, messages: KafkaMessage[]) =>
    eachBatch!({
      batch: { topic, partition: 0, messages },
      resolveOffset: (offset: string) => void resolved.push(offset),
      heartbeat: async () => undefined,
      isRunning: () => true,
      isStale: () => false,
      uncommittedOffsets: () => ({ topics: [] }),
      commitOffsetsIfNecessary: async () => undefined,
    } as unknown as EachBatchPayload);
  return { deliver, deliverBatch, applied, resolved };
}

/** A database whose inbox takes every event as new. */
const acceptingDatabase = () =>
  ({
    transaction: async <T>(_options: unknown, work: (m: EntityManager) => Promise<T>): Promise<T> =>
      work({
        query: async (_sql: string, params: unknown[]) => (params[1] as string[]).map((event_id) => ({ event_id })),
      } as EntityManager),
  }) as unknown as DataSource;

describe('IdempotentConsumer', () => {
  it('while the database is unreachable, retries a batch whole after a back-off, not one event at a time', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const statements: Sql[] = [];
    let transactions = 0;
    const ds = {
      transaction: async <T>(_options: unknown, work: (m: EntityManager) => Promise<T>): Promise<T> => {
        if (++transactions <= 2) throw refused;
        return work({
          query: async (sql: Sql, params: unknown[]) => {
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
    expect(sqlText(statements[0])).toMatch(/unnest/);
    expect(applied).toEqual(['a', 'b', 'c']);
    expect(resolved).toEqual(['0', '1', '2']);
    // Two back-offs (400 ms, then 800 ms) before the third try.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_150);
  });
});

describe('IdempotentConsumer transactions', () => {
  it('begins every transaction as its options ask, the batch and each event retried alone', async () => {
    const opened: unknown[] = [];
    const ds = {
      transaction: async <T>(options: unknown, work: (m: EntityManager) => Promise<T>): Promise<T> => {
        opened.push(options);
        return work({
          query: async (_sql: string, params: unknown[]) =>
            (Array.isArray(params[1]) ? (params[1] as string[]) : [params[1] as string]).map((event_id) => ({
              event_id,
            })),
        } as EntityManager);
      },
    } as unknown as DataSource;
    const transaction = { settings: { enable_bitmapscan: 'off' } };
    let failures = 1;
    const { deliver } = await consumerOn(ds, {
      transaction,
      handlers: {
        // Fails once: the shared transaction fails, and the events are then applied one by one.
        'transaction.status_changed': async () => {
          if (failures-- > 0) throw new Error('refused once');
        },
      },
    });
    await deliver(['a', 'b']);
    expect(opened).toHaveLength(3); // the batch's, then a's and b's alone
    expect(opened.every((o) => o === transaction)).toBe(true);
  });
});

describe('IdempotentConsumer on its replay topic', () => {
  it('applies a bundle split over two chunks, and moves the offset only once its last record is handled', async () => {
    const sent: { messages: { value: string }[] }[] = [];
    const producer = { send: async (r: (typeof sent)[number]) => void sent.push(r) } as unknown as Producer;
    const { deliverBatch, applied, resolved } = await consumerOn(acceptingDatabase(), { maxBatch: 2 }, producer);
    const ids = ['a', 'b', 'c'];
    const bundle = {
      offset: '40',
      key: null,
      value: encodeReplayBundle(
        ids.map((id, i) => ({
          key: null,
          value: Buffer.from(JSON.stringify(envelope(id))),
          headers: {},
          offset: String(7 + i),
        })),
      ),
      headers: {
        [ReplayHeaders.Origin]: Buffer.from(
          formatReplayOrigin({
            run: 'run-1',
            seq: 10,
            partition: 0,
            offset: '7',
            topic: 'p.transaction.status_changed',
          }),
        ),
        [ReplayHeaders.Bundle]: Buffer.from(formatBundleHeader(3, 'run-1')),
      },
    } as unknown as KafkaMessage;

    await deliverBatch('p.replay.spec-group', [bundle]);

    expect(applied).toEqual(ids);
    // Two chunks (2 + 1 records): the bundle's offset after the second only.
    expect(resolved).toEqual(['40']);
    expect(sent.map((r) => JSON.parse(r.messages[0].value).ranges)).toEqual([
      [[10, 11, 'applied']],
      [[12, 12, 'applied']],
    ]);
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
