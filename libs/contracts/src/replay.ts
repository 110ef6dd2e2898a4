/**
 * Delivering messages to ONE consumer group (ADR 0007): each group also consumes its own replay topic, whose messages
 * name the record they copy; it applies them idempotently and reports each outcome on REPLAY_RESULTS_TOPIC.
 */
export function replayTopic(group: string): string {
  return `replay.${group}`;
}

export const REPLAY_RESULTS_TOPIC = 'replay.results';

/** The group whose replay topic this is (a name without the deployment's prefix); undefined for any other topic. */
export function replayTopicGroup(topic: string): string | undefined {
  if (topic === REPLAY_RESULTS_TOPIC || !topic.startsWith('replay.')) return undefined;
  return topic.slice('replay.'.length) || undefined;
}

export const ReplayHeaders = {
  /**
   * Everything below in one header, `<run> <seq> <partition> <offset> <topic>`: kafkajs encodes each header into a
   * buffer of its own, so fewer headers copy faster. Consumers still read the five headers older copies carry.
   */
  Origin: 'replay-origin',
  Run: 'replay-run',
  /** Full (prefixed) name of the topic the record was first published to. */
  SourceTopic: 'replay-source-topic',
  SourcePartition: 'replay-source-partition',
  SourceOffset: 'replay-source-offset',
  /** The record's position in its run (0, 1, …): the copier counts each outcome once by it. */
  Sequence: 'replay-seq',
  /**
   * `<count> <run>` on a record whose value is a bundle of that many records of one source
   * partition (replay-bundle.ts); its `replay-origin` names the first, the others follow in
   * sequence. A dead letter of a whole bundle keeps it, so `ops dlq replay` can open the bundle.
   */
  Bundle: 'replay-bundle',
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

/** Partition and offset of an origin that does not say them (or says something that is not one). */
export const UNKNOWN_PARTITION = -1;
export const UNKNOWN_OFFSET = '-1';

const partitionOf = (p: unknown): number =>
  typeof p === 'number' && Number.isSafeInteger(p) && p >= 0 ? p : UNKNOWN_PARTITION;
const offsetOf = (o: unknown): string => (typeof o === 'string' && /^\d{1,19}$/.test(o) ? o : UNKNOWN_OFFSET);

/**
 * The `replay-origin` header's value (topic last: it has no spaces, so it parses back whole). A partition or offset
 * that is not one (a damaged letter) is written as `-1`, unknown, so the rest of the origin stays readable.
 */
export function formatReplayOrigin(o: ReplayOriginFields): string {
  const seq = o.seq !== null && Number.isSafeInteger(o.seq) && o.seq >= 0 ? o.seq : '-';
  return `${o.run} ${seq} ${partitionOf(o.partition)} ${offsetOf(o.offset)} ${o.topic}`;
}

/**
 * The fields of a `replay-origin` header; undefined when it is not one (not five fields). A
 * sequence number, partition or offset that cannot be read is lost alone (null, -1, '-1': `-` is
 * read so too), the run and the topic are kept.
 */
export function parseReplayOrigin(value: string): ReplayOriginFields | undefined {
  const m = /^(\S+) (\S+) (\S+) (\S+) (\S+)$/.exec(value);
  if (!m) return undefined;
  const [, run, seq, partition, offset, topic] = m;
  return {
    run,
    seq: /^\d{1,15}$/.test(seq) ? Number(seq) : null,
    partition: /^\d{1,10}$/.test(partition) ? partitionOf(Number(partition)) : UNKNOWN_PARTITION,
    offset: offsetOf(offset),
    topic,
  };
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

/** A REPLAY_RESULTS_TOPIC message (keyed by run id), one per record: for copies made by an earlier ops. */
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
