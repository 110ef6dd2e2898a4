import {
  KafkaJSConnectionError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  Partitioners,
  type Producer,
  type ProducerBatch,
  type RecordMetadata,
} from 'kafkajs';
import pino from 'pino';
import type { DataSource } from '@payments/database';
import { OUTBOX_PRUNE_BATCH, OutboxRelay, relayFailure } from './outbox';

const protocolError = (type: string, code: number) =>
  new KafkaJSProtocolError({ type, code, retriable: true, message: `${type} from the broker` } as unknown as string);

describe('relayFailure', () => {
  it('names missing in-sync replicas behind a send that ran out of retries', () => {
    for (const [type, code] of [
      ['NOT_ENOUGH_REPLICAS', 19],
      ['NOT_ENOUGH_REPLICAS_AFTER_APPEND', 20],
    ] as const) {
      const err = new KafkaJSNumberOfRetriesExceeded(protocolError(type, code), { retryCount: 8, retryTime: 5000 });
      const failure = relayFailure(err);
      expect(failure.reason).toBe('not_enough_replicas');
      expect(failure.types).toEqual([type]);
      expect(failure.explanation).toContain(type);
      expect(failure.explanation).toMatch(/min\.insync\.replicas/);
    }
  });

  it('tells a partition without a leader, a lost connection and anything else apart', () => {
    expect(relayFailure(protocolError('NOT_LEADER_OR_FOLLOWER', 6)).reason).toBe('leader_unavailable');
    expect(relayFailure(new KafkaJSConnectionError('Connection error: ECONNREFUSED')).reason).toBe('connection');
    expect(relayFailure(new Error('boom'))).toEqual({ reason: 'other', types: [], explanation: 'boom' });
  });
});

describe('OutboxRelay sending a batch', () => {
  const rows = Array.from({ length: 12 }, (_, i) => ({
    id: String(i + 1),
    event_id: `e${i}`,
    topic: i % 2 ? 'a' : 'b',
    message_key: `key-${i % 5}`,
    payload: `{"n":${i}}`,
    headers: {},
  }));
  const partitionOf = Partitioners.DefaultPartitioner();
  const meta = Array.from({ length: 6 }, (_, i) => ({
    partitionErrorCode: 0,
    partitionId: i,
    leader: 0,
    replicas: [],
    isr: [],
  }));
  /** What Kafka answers for a batch: one entry per topic-partition it wrote. */
  const acknowledgeAll = (b: ProducerBatch): RecordMetadata[] => {
    const seen = new Set<string>();
    const out: RecordMetadata[] = [];
    for (const t of b.topicMessages ?? [])
      for (const m of t.messages) {
        const key = `${t.topic}/${m.partition}`;
        if (!seen.has(key)) out.push({ topicName: t.topic, partition: m.partition!, errorCode: 0 });
        seen.add(key);
      }
    return out;
  };

  /** What the prune's statement answers (a first tick prunes); by default a stretch with nothing old enough. */
  type PruneAnswer = (params: unknown[]) => Promise<{ looked: number; last: string | null; deleted: number }>;

  /** What the batch's statement answers: the lock and the rows, as the LEFT JOIN gives them (one row when none). */
  const taking = (batch: typeof rows, locked = true) =>
    batch.length === 0 ? [{ locked, id: null }] : batch.map((r) => ({ locked, ...r }));

  function relayWith(
    sendBatch: (b: ProducerBatch) => Promise<RecordMetadata[]>,
    prune: PruneAnswer = async () => ({ looked: 0, last: null, deleted: 0 }),
    take: () => unknown[] = () => taking(rows),
    batchSize = 500,
  ) {
    const updates: unknown[] = [];
    const taken: { options: unknown; statement: unknown }[] = [];
    const pruned: unknown[][] = [];
    const ds = {
      transaction: async (
        options: { settings?: Record<string, string> },
        fn: (m: Record<'query' | 'commitWith', (...a: unknown[]) => Promise<unknown>>) => Promise<unknown>,
      ) =>
        options.settings?.statement_timeout
          ? fn({
              query: async () => Promise.reject(new Error('the prune sends one statement')),
              commitWith: async (_sql, params) => (
                pruned.push(params as unknown[]),
                [await prune(params as unknown[])]
              ),
            })
          : fn({
              query: async (statement) => (taken.push({ options, statement }), take()),
              commitWith: async (...a) => void updates.push(a),
            }),
    } as unknown as DataSource;
    const producer = { sendBatch } as unknown as Producer;
    const logger = pino({ level: 'silent' });
    const relay = new OutboxRelay(ds, producer, 'p.', logger, async () => 6, batchSize, 7);
    return { relay, updates, taken, pruned, logger };
  }

  it("sends one request, each message in order on its key's partition; marks rows once all are acked", async () => {
    const sent: ProducerBatch[] = [];
    const { relay, updates } = relayWith(async (b) => (sent.push(b), acknowledgeAll(b)));
    await relay.tick();
    expect(sent).toHaveLength(1);
    expect(sent[0].acks).toBe(-1);
    const messages = (sent[0].topicMessages ?? []).flatMap((t) => t.messages.map((m) => ({ topic: t.topic, ...m })));
    for (const m of messages)
      expect(m.partition).toBe(
        partitionOf({ topic: m.topic, partitionMetadata: meta, message: { key: m.key, value: m.value } }),
      );
    expect(messages.map((m) => m.headers!['event-id']).sort()).toEqual(rows.map((r) => r.event_id).sort());
    // Per topic and key, the rows' order is kept.
    for (const topic of ['p.a', 'p.b'])
      for (let k = 0; k < 5; k++) {
        const mine = messages.filter((m) => m.topic === topic && m.key === `key-${k}`).map((m) => m.value);
        expect(mine).toEqual(
          rows.filter((r) => `p.${r.topic}` === topic && r.message_key === `key-${k}`).map((r) => r.payload),
        );
      }
    expect(updates).toHaveLength(1);
  });

  it("marks nothing when Kafka's answer leaves out a partition it was sent (kafkajs skipped it on retry)", async () => {
    const { relay, updates } = relayWith(async (b) => acknowledgeAll(b).slice(1));
    await expect(relay.tick()).rejects.toThrow(/Kafka acknowledged no write for p\.[ab]\/\d/);
    expect(updates).toHaveLength(0);
  });

  it('marks nothing when the send fails', async () => {
    const { relay, updates } = relayWith(async () => {
      throw new Error('leader gone');
    });
    await expect(relay.tick()).rejects.toThrow('leader gone');
    expect(updates).toHaveLength(0);
  });

  it('takes its batch with a statement prepared under a name, in a transaction without bitmap scans', async () => {
    const { relay, taken } = relayWith(async (b) => acknowledgeAll(b));
    await relay.tick();
    await relay.tick();
    expect(taken).toHaveLength(2);
    for (const { options, statement } of taken) {
      // The partial index's dead entries: a bitmap scan would visit each one's heap page on every tick.
      expect(options).toEqual({ settings: { enable_bitmapscan: 'off' } });
      expect(statement).toMatchObject({ name: 'outbox_take_batch_500', text: expect.stringContaining('LIMIT 500') });
    }
    expect(taken[1].statement).toBe(taken[0].statement);
  });

  it('prunes a stretch a tick from where the last stopped, until a stretch has nothing old enough', async () => {
    const answers = [
      { looked: OUTBOX_PRUNE_BATCH, last: '1000', deleted: OUTBOX_PRUNE_BATCH },
      { looked: OUTBOX_PRUNE_BATCH, last: '2400', deleted: 3 },
      { looked: OUTBOX_PRUNE_BATCH, last: '3400', deleted: 0 },
    ];
    const { relay, pruned } = relayWith(acknowledgeAll as never, async () => answers.shift()!);
    for (let i = 0; i < 4; i++) await relay.tick();
    // Retention in days, the stretch's length, the id after which it starts; the fourth tick does not prune.
    expect(pruned).toEqual([
      [7, OUTBOX_PRUNE_BATCH, '0'],
      [7, OUTBOX_PRUNE_BATCH, '1000'],
      [7, OUTBOX_PRUNE_BATCH, '2400'],
    ]);
  });

  it('ends a prune at the end of the table', async () => {
    const { relay, pruned } = relayWith(acknowledgeAll as never, async () => ({ looked: 10, last: '10', deleted: 10 }));
    await relay.tick();
    await relay.tick();
    expect(pruned).toHaveLength(1);
  });

  it('relays on when the prune fails, and tries the prune again minutes later, not on every tick', async () => {
    const sent: ProducerBatch[] = [];
    const { relay, pruned, updates, logger } = relayWith(
      async (b) => (sent.push(b), acknowledgeAll(b)),
      async () => Promise.reject(new Error('canceling statement due to statement timeout')),
    );
    const warn = jest.spyOn(logger, 'warn');
    await expect(relay.tick()).resolves.toBe(false);
    await expect(relay.tick()).resolves.toBe(false);
    expect(sent).toHaveLength(2);
    expect(updates).toHaveLength(2);
    expect(pruned).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(expect.anything(), 'outbox prune failed; trying again in 5 minutes');
  });
  describe('what a tick says about the next', () => {
    /** A relay whose first tick's prune is done (a stretch with nothing old enough), so later ticks do not prune. */
    async function settled(take: () => unknown[], batchSize = 500) {
      const sent: ProducerBatch[] = [];
      let answer: () => unknown[] = () => taking([]);
      const made = relayWith(
        async (b) => (sent.push(b), acknowledgeAll(b)),
        undefined,
        () => answer(),
        batchSize,
      );
      await made.relay.tick();
      answer = take;
      return { ...made, sent };
    }

    it('an empty outbox under the lock: no known work, so the worker sleeps its idle maximum', async () => {
      const { relay, sent, updates } = await settled(() => taking([]));
      await expect(relay.tick()).resolves.toBe(Infinity);
      expect(sent).toHaveLength(0);
      expect(updates).toHaveLength(0);
    });

    it("another relay holding the lock: the interval (its batch may miss this process's rows)", async () => {
      const { relay, sent } = await settled(() => taking([], false));
      await expect(relay.tick()).resolves.toBe(false);
      expect(sent).toHaveLength(0);
    });

    it('a part batch: the interval; a full one: at once', async () => {
      const part = await settled(() => taking(rows));
      await expect(part.relay.tick()).resolves.toBe(false);
      const full = await settled(() => taking(rows), rows.length);
      await expect(full.relay.tick()).resolves.toBe(true);
      expect(full.updates).toHaveLength(1);
    });

    it('an empty outbox while a prune is under way: the interval, so the prune goes on at its pace', async () => {
      const { relay, pruned } = relayWith(
        acknowledgeAll as never,
        async () => ({ looked: OUTBOX_PRUNE_BATCH, last: '1000', deleted: OUTBOX_PRUNE_BATCH }),
        () => taking([]),
      );
      await expect(relay.tick()).resolves.toBe(false);
      await expect(relay.tick()).resolves.toBe(false);
      expect(pruned).toHaveLength(2);
    });

    it('sends and marks in id order whatever order the rows came in', async () => {
      const shuffled = [rows[9], rows[0], rows[11], rows[3], rows[10], rows[1]];
      const { relay, sent, updates } = await settled(() => taking(shuffled));
      await relay.tick();
      const ids = (sent[0].topicMessages ?? []).flatMap((t) => t.messages.map((m) => m.headers!['event-id']));
      const byEvent = new Map(rows.map((r) => [r.event_id, Number(r.id)]));
      for (const topic of sent[0].topicMessages ?? []) {
        const order = topic.messages.map((m) => byEvent.get(m.headers!['event-id'] as string)!);
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }
      expect(ids).toHaveLength(shuffled.length);
      expect(updates[0]).toEqual([expect.anything(), [['1', '2', '4', '10', '11', '12']]]);
    });
  });
  describe('the last passes at shutdown (drain)', () => {
    it("tries again while another relay holds the lock, then sends this process's rows", async () => {
      const answers = [taking([], false), taking([], false), taking(rows.slice(0, 3))];
      const sent: ProducerBatch[] = [];
      const { relay, taken, pruned } = relayWith(
        async (b) => (sent.push(b), acknowledgeAll(b)),
        undefined,
        () => answers.shift() ?? taking([]),
      );
      await relay.drain(1);
      expect(taken).toHaveLength(3);
      expect(sent).toHaveLength(1);
      expect(pruned).toHaveLength(0);
    });

    it('goes on after a full batch, and stops at an empty outbox under the lock', async () => {
      const answers = [taking(rows.slice(0, 2)), taking(rows.slice(2, 3)), taking([])];
      const { relay, taken, updates } = relayWith(acknowledgeAll as never, undefined, () => answers.shift()!, 2);
      await relay.drain(1);
      expect(taken).toHaveLength(2);
      expect(updates).toHaveLength(2);
    });

    it('gives up after its tries while the lock stays taken, and at the first failing pass', async () => {
      const locked = relayWith(acknowledgeAll as never, undefined, () => taking([], false));
      await locked.relay.drain(1, 4);
      expect(locked.taken).toHaveLength(4);
      const failing = relayWith(async () => Promise.reject(new Error('leader gone')));
      const warn = jest.spyOn(failing.logger, 'warn');
      await expect(failing.relay.drain(1)).resolves.toBeUndefined();
      expect(failing.taken).toHaveLength(1);
      expect(warn).toHaveBeenCalledTimes(1);
    });
  });
});
