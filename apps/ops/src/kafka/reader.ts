import { randomUUID } from 'node:crypto';
import type { Consumer, KafkaMessage } from 'kafkajs';
import { TimedOutError } from '../cli/errors';
import { interrupted } from '../cli/interrupt';
import { OPS_READER_GROUP } from './groups';
import type { KafkaSession } from './session';

/** Offsets [from, to) of one partition. */
export interface PartitionRange {
  partition: number;
  from: number;
  to: number;
}

/** Handles a batch; `false` says it held nothing for this read (e.g. another run's results): not progress. */
export type BatchHandler = (
  partition: number,
  messages: KafkaMessage[],
  heartbeat: () => Promise<void>,
) => Promise<void | boolean>;

const MB = 1024 * 1024;

/** With no batch at all for this long, a read is stuck (the default of every command's --stall-timeout). */
export const DEFAULT_STALL_MS = 120_000;

export interface ReadOptions {
  /** Fail when no batch arrived for this long; a read that keeps moving runs as long as it needs. */
  stallMs: number;
  /** What is being read, for the stall message. */
  what: string;
  /**
   * Read as this consumer group, committing each partition's next offset after its batch (at most every
   * `commitEveryMs`) and on stop, so a read interrupted with ^C continues there. Else a throw-away group.
   */
  checkpoint?: { groupId: string; metadata: (partition: number) => string; commitEveryMs?: number };
}

/** How a read ended: every range read, or stopped by ^C (its checkpoint committed). */
export type ReadEnd = 'done' | 'interrupted';

/**
 * Reads from the given offsets with a consumer group of its own (kafkajs has no assign-only
 * consumer) until `done()`, ^C, or a stall of `stallMs` without any batch.
 */
export async function readFrom(
  s: KafkaSession,
  topic: string,
  starts: Map<number, number>,
  onBatch: BatchHandler,
  done: () => boolean,
  opts: ReadOptions,
): Promise<ReadEnd> {
  if (done()) return 'done';
  const groupId = opts.checkpoint?.groupId ?? s.full(`${OPS_READER_GROUP}${randomUUID()}`);
  // Partitions handled side by side: reading and handling one partition's batch overlap with the
  // others' network waits. Fetches of 1 MB per partition keep the copier's memory bounded.
  const consumer = s.kafka.consumer({
    groupId,
    sessionTimeout: 30_000,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: 500,
    maxBytesPerPartition: MB,
    maxBytes: 4 * MB,
  });
  // With a checkpoint every partition is recorded from the first commit on (its range in the metadata).
  const next = new Map<number, number>(opts.checkpoint ? starts : []);
  let lastCommit = 0;
  const commit = async () => {
    if (!opts.checkpoint || next.size === 0) return;
    lastCommit = Date.now();
    await consumer.commitOffsets(
      [...next].map(([partition, offset]) => ({
        topic: s.full(topic),
        partition,
        offset: String(offset),
        metadata: opts.checkpoint!.metadata(partition),
      })),
    );
  };
  let stallTimer: NodeJS.Timeout | undefined;
  let busy = 0;
  let lastMoved = Date.now();
  let end: ReadEnd = 'done';
  let stop = () => undefined as void;
  // The batches being handled: the last commit waits for them, and is made before the consumer
  // stops (kafkajs refuses commits after).
  const inFlight = new Set<Promise<void>>();
  // A batch that failed after the read was already resolved (another partition finished it) still fails it.
  let failed: Error | undefined;
  try {
    await consumer.connect();
    // Every partition is sought to its start; should kafkajs ever fall back to a default (an offset
    // gone to retention), it reads from the earliest rather than skipping to the end.
    await consumer.subscribe({ topics: [s.full(topic)], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const stalled = () =>
        reject(
          new TimedOutError(
            `${opts.what}: nothing read for ${Math.round(opts.stallMs / 1000)} s (see --stall-timeout)`,
          ),
        );
      // Armed from the last batch that moved, and only while no batch is being handled.
      const arm = () => {
        clearTimeout(stallTimer);
        if (busy === 0) stallTimer = setTimeout(stalled, Math.max(0, lastMoved + opts.stallMs - Date.now()));
      };
      const alive = () => {
        lastMoved = Date.now();
        arm();
      };
      stop = () => {
        end = 'interrupted';
        resolve();
      };
      alive();
      if (interrupted.aborted) return stop();
      interrupted.addEventListener('abort', stop, { once: true });
      consumer
        .run({
          autoCommit: false,
          partitionsConsumedConcurrently: starts.size,
          eachBatch: async ({ batch, heartbeat }) => {
            if (end === 'interrupted') return;
            const from = starts.get(batch.partition);
            if (from === undefined) return;
            const messages = batch.messages.filter((m) => Number(m.offset) >= from);
            if (messages.length === 0) return;
            // The stall timer waits while a batch is handled (e.g. its output waits for a slow pipe).
            busy += 1;
            clearTimeout(stallTimer);
            const handling = (async () => {
              const moved = await onBatch(batch.partition, messages, heartbeat).finally(() => (busy -= 1));
              if (moved !== false) alive();
              else arm();
              next.set(batch.partition, Number(messages[messages.length - 1].offset) + 1);
              if (Date.now() - lastCommit >= (opts.checkpoint?.commitEveryMs ?? 1_000)) await commit();
            })();
            inFlight.add(handling);
            try {
              await handling;
            } catch (err) {
              // A batch that cannot be handled (e.g. a record too large to copy) ends the read at once.
              failed ??= err as Error;
              reject(err as Error);
              return;
            } finally {
              inFlight.delete(handling);
            }
            if (done()) resolve();
          },
        })
        .catch(reject);
      for (const [partition, offset] of starts)
        consumer.seek({ topic: s.full(topic), partition, offset: String(offset) });
    });
    await Promise.allSettled([...inFlight]);
    if (failed) throw failed;
    await commit();
    await stopConsumer(consumer);
    return end;
  } finally {
    clearTimeout(stallTimer);
    interrupted.removeEventListener('abort', stop);
    await consumer.disconnect().catch(() => undefined);
    if (!opts.checkpoint) await s.admin.deleteGroups([groupId]).catch(() => undefined);
  }
}

/** Stops fetching and waits for the batch being handled, so the last commit covers it. */
async function stopConsumer(consumer: Consumer): Promise<void> {
  await consumer.stop().catch(() => undefined);
}

/** Reads exactly the given ranges of a topic (base name), in offset order per partition. */
export async function readRanges(
  s: KafkaSession,
  topic: string,
  ranges: PartitionRange[],
  onBatch: BatchHandler,
  opts: ReadOptions,
): Promise<ReadEnd> {
  const pending = ranges.filter((r) => r.to > r.from);
  const next = new Map(pending.map((r) => [r.partition, r.from]));
  const ends = new Map(pending.map((r) => [r.partition, r.to]));
  const done = () => [...next].every(([p, n]) => n >= ends.get(p)!);
  return readFrom(
    s,
    topic,
    new Map(next),
    async (partition, messages, heartbeat) => {
      const end = ends.get(partition)!;
      const inRange = messages.filter((m) => Number(m.offset) < end);
      next.set(partition, Math.max(next.get(partition)!, Number(messages[messages.length - 1].offset) + 1));
      return inRange.length > 0 ? onBatch(partition, inRange, heartbeat) : false;
    },
    done,
    opts,
  );
}

/** The current [low, high) of every partition of a topic (base name). */
export async function topicRanges(s: KafkaSession, topic: string): Promise<PartitionRange[]> {
  const offsets = await s.admin.fetchTopicOffsets(s.full(topic));
  return offsets
    .map((o) => ({ partition: o.partition, from: Number(o.low), to: Number(o.high) }))
    .sort((a, b) => a.partition - b.partition);
}
