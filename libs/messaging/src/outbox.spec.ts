import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, Partitioners, type Producer, type ProducerRecord, type RecordMetadata } from 'kafkajs';
import pino from 'pino';
import type { DataSource } from '@payments/database';
import { OutboxRelay, relayFailure } from './outbox';

const protocolError = (type: string, code: number) => new KafkaJSProtocolError({ type, code, retriable: true, message: `${type} from the broker` } as unknown as string);

describe('relayFailure', () => {
  it('names missing in-sync replicas behind a send that ran out of retries', () => {
    for (const [type, code] of [['NOT_ENOUGH_REPLICAS', 19], ['NOT_ENOUGH_REPLICAS_AFTER_APPEND', 20]] as const) {
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

describe('OutboxRelay sending per partition', () => {
  const rows = Array.from({ length: 12 }, (_, i) => ({ id: String(i + 1), event_id: `e${i}`, topic: i % 2 ? 'a' : 'b', message_key: `key-${i % 5}`, payload: `{"n":${i}}`, headers: {} }));

  function relayWith(send: (r: ProducerRecord) => Promise<RecordMetadata[]>) {
    const updates: unknown[] = [];
    const ds = { transactionFrom: async (_sql: string, fn: (r: typeof rows, m: { query: (...a: unknown[]) => Promise<void> }) => Promise<number>) => fn(rows, { query: async (...a) => void updates.push(a) }) } as unknown as DataSource;
    const producer = { send } as unknown as Producer;
    return { relay: new OutboxRelay(ds, producer, 'p.', pino({ level: 'silent' }), 500, 7, async () => 6), updates };
  }

  it('sends each partition its own request, with the partition the key hashes to, and marks the rows once all went out', async () => {
    const sent: ProducerRecord[] = [];
    const { relay, updates } = relayWith(async (r) => (sent.push(r), []));
    await relay.tick();
    const partitionOf = Partitioners.DefaultPartitioner();
    const meta = Array.from({ length: 6 }, (_, i) => ({ partitionErrorCode: 0, partitionId: i, leader: 0, replicas: [], isr: [] }));
    for (const r of sent) {
      const partitions = new Set(r.messages.map((m) => m.partition));
      expect(partitions.size).toBe(1);
      for (const m of r.messages) expect(m.partition).toBe(partitionOf({ topic: r.topic, partitionMetadata: meta, message: { key: m.key, value: m.value } }));
      expect(r.acks).toBe(-1);
    }
    expect(sent.flatMap((r) => r.messages.map((m) => m.headers!['event-id'])).sort()).toEqual(rows.map((r) => r.event_id).sort());
    // Per topic and key, the rows' order is kept.
    const order = sent.flatMap((r) => r.messages.map((m) => `${r.topic} ${String(m.key)} ${String(m.value)}`));
    for (const topic of ['p.a', 'p.b']) for (let k = 0; k < 5; k++) {
      const mine = order.filter((o) => o.startsWith(`${topic} key-${k} `));
      expect(mine).toEqual(rows.filter((r) => `p.${r.topic}` === topic && r.message_key === `key-${k}`).map((r) => `${topic} key-${k} ${r.payload}`));
    }
    expect(updates).toHaveLength(1);
  });

  it('marks nothing when one partition\'s send fails, after every other send has finished', async () => {
    let finished = 0;
    let calls = 0;
    const { relay, updates } = relayWith(async () => {
      calls += 1;
      if (calls === 1) throw new Error('leader gone');
      await new Promise((r) => setTimeout(r, 20));
      finished += 1;
      return [];
    });
    await expect(relay.tick()).rejects.toThrow('leader gone');
    expect(finished).toBe(calls - 1);
    expect(updates).toHaveLength(0);
  });
});
