import { randomUUID } from 'node:crypto';
import type { KafkaMessage } from 'kafkajs';
import { TimedOutError } from '../cli/errors';
import { OPS_READER_GROUP } from './groups';
import type { KafkaSession } from './session';

/** Offsets [from, to) of one partition. */
export interface PartitionRange {
  partition: number;
  from: number;
  to: number;
}

export type BatchHandler = (partition: number, messages: KafkaMessage[]) => Promise<void>;

/**
 * Reads from the given offsets with a throw-away consumer group that commits nothing and is
 * deleted at the end (kafkajs has no assign-only consumer), until `done()` or the deadline.
 */
export async function readFrom(
  s: KafkaSession,
  topic: string,
  starts: Map<number, number>,
  onBatch: BatchHandler,
  done: () => boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  if (done()) return;
  const groupId = s.full(`${OPS_READER_GROUP}${randomUUID()}`);
  const consumer = s.kafka.consumer({ groupId, sessionTimeout: 10_000, allowAutoTopicCreation: false, maxWaitTimeInMs: 500 });
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [s.full(topic)], fromBeginning: false });
    const finished = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new TimedOutError(`${what}: not finished after ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            const from = starts.get(batch.partition);
            if (from === undefined) return;
            const messages = batch.messages.filter((m) => Number(m.offset) >= from);
            if (messages.length > 0) await onBatch(batch.partition, messages);
            if (done()) resolve();
          },
        })
        .catch(reject);
    });
    for (const [partition, offset] of starts) consumer.seek({ topic: s.full(topic), partition, offset: String(offset) });
    await finished;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect().catch(() => undefined);
    await s.admin.deleteGroups([groupId]).catch(() => undefined);
  }
}

/** Reads exactly the given ranges of a topic (base name), in offset order per partition. */
export async function readRanges(s: KafkaSession, topic: string, ranges: PartitionRange[], onBatch: BatchHandler, timeoutMs = 120_000): Promise<void> {
  const pending = ranges.filter((r) => r.to > r.from);
  const next = new Map(pending.map((r) => [r.partition, r.from]));
  const ends = new Map(pending.map((r) => [r.partition, r.to]));
  const done = () => [...next].every(([p, n]) => n >= ends.get(p)!);
  await readFrom(
    s,
    topic,
    new Map(next),
    async (partition, messages) => {
      const end = ends.get(partition)!;
      const inRange = messages.filter((m) => Number(m.offset) < end);
      if (inRange.length > 0) await onBatch(partition, inRange);
      next.set(partition, Math.max(next.get(partition)!, Number(messages[messages.length - 1].offset) + 1));
    },
    done,
    timeoutMs,
    `reading ${topic}`,
  );
}

/** The current [low, high) of every partition of a topic (base name). */
export async function topicRanges(s: KafkaSession, topic: string): Promise<PartitionRange[]> {
  const offsets = await s.admin.fetchTopicOffsets(s.full(topic));
  return offsets.map((o) => ({ partition: o.partition, from: Number(o.low), to: Number(o.high) })).sort((a, b) => a.partition - b.partition);
}
