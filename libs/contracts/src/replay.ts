/**
 * Delivering messages to ONE consumer group (the ops CLI's live replay and dead-letter replay):
 * every group also consumes its own replay topic, whose messages carry the coordinates of the
 * record they copy. The consumer applies them through the same idempotent path and reports each
 * outcome on REPLAY_RESULTS_TOPIC, keyed by the run id, so ops never reads a service's tables.
 */
export function replayTopic(group: string): string {
  return `replay.${group}`;
}

export const REPLAY_RESULTS_TOPIC = 'replay.results';

export const ReplayHeaders = {
  /**
   * Everything below in one header, `<run> <seq> <partition> <offset> <topic>` (what ops writes):
   * kafkajs encodes every header of a record into a buffer of its own, so the copier's cost per
   * record grew with each header (docs/benchmarks.md, eleventh round). Consumers also read the
   * five separate headers, which copies made by an earlier ops carry.
   */
  Origin: 'replay-origin',
  Run: 'replay-run',
  /** Full (prefixed) name of the topic the record was first published to. */
  SourceTopic: 'replay-source-topic',
  SourcePartition: 'replay-source-partition',
  SourceOffset: 'replay-source-offset',
  /** The record's position in its run (0, 1, …): the copier counts each outcome once by it. */
  Sequence: 'replay-seq',
} as const;

/** Where a replayed record comes from, as the replay headers say. */
export interface ReplayOriginFields {
  run: string;
  /** Full (prefixed) name of the topic the record was first published to. */
  topic: string;
  partition: number;
  offset: string;
  seq: number | null;
}

/** The value of the `replay-origin` header (the topic last: a name has no spaces, so it parses back whole). */
export function formatReplayOrigin(o: ReplayOriginFields): string {
  return `${o.run} ${o.seq ?? '-'} ${o.partition} ${o.offset} ${o.topic}`;
}

/** The fields of a `replay-origin` header; undefined when it is not one. */
export function parseReplayOrigin(value: string): ReplayOriginFields | undefined {
  const m = /^(\S+) (\d{1,15}|-) (-?\d+) (-?\d+) (\S+)$/.exec(value);
  if (!m) return undefined;
  return { run: m[1], seq: m[2] === '-' ? null : Number(m[2]), partition: Number(m[3]), offset: m[4], topic: m[5] };
}

/** Headers a consumer puts on a dead letter; the original message's own headers are kept too. */
export const DeadLetterHeaders = {
  Reason: 'dlq-reason',
  OriginalTopic: 'dlq-original-topic',
  OriginalPartition: 'dlq-original-partition',
  OriginalOffset: 'dlq-original-offset',
  ConsumerGroup: 'dlq-consumer-group',
} as const;

export type ReplayOutcome = 'applied' | 'duplicate' | 'dead_lettered';

/**
 * Value of a REPLAY_RESULTS_TOPIC message (its key is the run id) for the records of a chunk that
 * carried a `replay-origin` header: runs of consecutive sequence numbers with one outcome,
 * `[first, last, outcome]` inclusive — one small message a chunk instead of one per record.
 */
export interface ReplayResultRanges {
  run: string;
  group: string;
  ranges: [number, number, ReplayOutcome][];
}

/** Value of a REPLAY_RESULTS_TOPIC message (its key is the run id), one per record: for copies made by an earlier ops. */
export interface ReplayResult {
  run: string;
  group: string;
  outcome: ReplayOutcome;
  topic: string;
  partition: number;
  offset: string;
  /** The replay-seq header of the record, null when it had none. */
  seq: number | null;
}
