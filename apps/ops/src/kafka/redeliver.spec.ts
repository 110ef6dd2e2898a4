import { Partitioners, type PartitionMetadata, type ProducerRecord } from 'kafkajs';
import { ReplayHeaders, decodeReplayBundle, parseReplayOrigin } from '@payments/contracts';
import { Redelivery, type ReplayRecord } from './redeliver';
import type { KafkaSession } from './session';

interface FakeProducer {
  id: number;
  sends: ProducerRecord[];
  disconnected: boolean;
}

/** A session whose replay topic has `partitions` partitions; `failConnects` producers fail to connect first. */
function fakeSession(partitions: number, failConnects = 0) {
  const producers: FakeProducer[] = [];
  const partitionMetadata: PartitionMetadata[] = Array.from({ length: partitions }, (_, i) => ({
    partitionErrorCode: 0,
    partitionId: i,
    leader: 1,
    replicas: [1],
    isr: [1],
  }));
  const session = {
    full: (name: string) => name,
    base: (name: string) => name,
    admin: {
      fetchTopicOffsets: async () => [{ partition: 0, offset: '0', high: '0', low: '0' }],
      describeCluster: async () => ({ brokers: [{ nodeId: 1 }] }),
      describeConfigs: async () => ({ resources: [] }),
      fetchTopicMetadata: async ({ topics }: { topics: string[] }) => ({
        topics: topics.map((name) => ({ name, partitions: partitionMetadata })),
      }),
    },
    kafka: {
      producer: () => {
        const p: FakeProducer = { id: producers.length, sends: [], disconnected: false };
        producers.push(p);
        return {
          connect: async () => {
            if (failConnects-- > 0) throw new Error('not allowed to write idempotently');
          },
          send: async (r: ProducerRecord) => {
            if (p.disconnected) throw new Error('sent on a disconnected producer');
            p.sends.push(r);
            return [];
          },
          disconnect: async () => {
            p.disconnected = true;
          },
        };
      },
    },
  };
  return { session: session as unknown as KafkaSession, producers, partitionMetadata };
}

const record = (partition: number, offset: number, key = `k${offset}`): ReplayRecord => ({
  key: Buffer.from(key),
  value: Buffer.from(`event ${partition}/${offset}`),
  headers: {},
  sourceTopic: 'transaction.status_changed',
  sourcePartition: partition,
  sourceOffset: String(offset),
});

/** What one produce request carried: its partition, first sequence number and the source offsets of its records. */
function bundleOf(r: ProducerRecord) {
  const [m] = r.messages;
  const origin = parseReplayOrigin(String(m.headers?.[ReplayHeaders.Origin]));
  const records = decodeReplayBundle(m.value as Buffer);
  if (typeof records === 'string') throw new Error(records);
  return { partition: m.partition, seq: origin?.seq, offsets: records.map((x) => x.offset) };
}

describe('Redelivery', () => {
  it('sends each replay partition through its own producer, in order, with contiguous sequence numbers', async () => {
    const { session, producers } = fakeSession(6);
    const r = new Redelivery(session, 'split-ledger-service');
    await r.open();
    await Promise.all([
      r.send([record(0, 0), record(0, 1)]),
      r.send([record(1, 0), record(1, 1), record(1, 2)]),
      r.send([record(7, 5)]),
    ]);
    await r.send([record(0, 2)]);
    expect(r.sent).toBe(7);
    const byPartition = new Map<number | undefined, FakeProducer>();
    for (const p of producers)
      for (const s of p.sends) {
        const { partition } = bundleOf(s);
        // A partition never changes producer, so its requests cannot overtake one another.
        expect(byPartition.get(partition) ?? p).toBe(p);
        byPartition.set(partition, p);
      }
    expect([...byPartition.keys()].sort()).toEqual([0, 1]); // source partition 7 → 7 % 6 = 1
    expect(new Set(byPartition.values()).size).toBe(2);
    const bundles = producers.flatMap((p) => p.sends.map(bundleOf));
    expect(bundles.filter((b) => b.partition === 0).map((b) => b.offsets)).toEqual([['0', '1'], ['2']]);
    const seqs = bundles.map((b) => [b.seq!, b.offsets.length]).sort((a, b) => a[0] - b[0]);
    let next = 0;
    for (const [seq, count] of seqs) {
      expect(seq).toBe(next);
      next += count;
    }
    expect(next).toBe(7);
    await r.close();
    expect(producers.every((p) => p.disconnected)).toBe(true);
  });

  it('places a record of unknown partition by its key, as the default partitioner does', async () => {
    const { session, producers, partitionMetadata } = fakeSession(6);
    const r = new Redelivery(session, 'split-ledger-service');
    await r.open();
    await r.send([record(-1, 0, 'order-42')]);
    const expected = Partitioners.DefaultPartitioner()({
      topic: 'replay.split-ledger-service',
      partitionMetadata,
      message: { key: Buffer.from('order-42'), value: null },
    });
    const [sent] = producers.flatMap((p) => p.sends);
    expect(bundleOf(sent).partition).toBe(expected);
    await r.close();
  });

  it('shares producers beyond eight partitions, a partition always on the same one', async () => {
    const { session, producers } = fakeSession(12);
    const r = new Redelivery(session, 'split-ledger-service');
    await r.open();
    for (let p = 0; p < 12; p++) await r.send([record(p, 0)]);
    expect(producers).toHaveLength(8);
    const of = (partition: number) => producers.find((p) => p.sends.some((s) => bundleOf(s).partition === partition));
    expect(of(9)).toBe(of(1));
    expect(of(9)).not.toBe(of(2));
    await r.close();
  });

  it('does not keep a producer whose connect failed: it is closed, and the next send connects again', async () => {
    const { session, producers } = fakeSession(6, 1);
    const r = new Redelivery(session, 'split-ledger-service');
    await expect(r.open()).rejects.toThrow('not allowed to write idempotently');
    expect(producers[0].disconnected).toBe(true);
    await r.send([record(0, 0)]);
    expect(producers).toHaveLength(2);
    expect(producers[1].sends).toHaveLength(1);
    await r.close();
    expect(producers[1].disconnected).toBe(true);
  });

  it('refuses to send after close() instead of opening a producer nobody closes', async () => {
    const { session, producers } = fakeSession(6);
    const r = new Redelivery(session, 'split-ledger-service');
    await r.open();
    await r.close();
    await expect(r.send([record(3, 0)])).rejects.toThrow('closed');
    expect(producers).toHaveLength(1);
  });
});
