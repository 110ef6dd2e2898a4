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
  Run: 'replay-run',
  /** Full (prefixed) name of the topic the record was first published to. */
  SourceTopic: 'replay-source-topic',
  SourcePartition: 'replay-source-partition',
  SourceOffset: 'replay-source-offset',
  /** The record's position in its run (0, 1, …): the copier counts each outcome once by it. */
  Sequence: 'replay-seq',
} as const;

/** Headers a consumer puts on a dead letter; the original message's own headers are kept too. */
export const DeadLetterHeaders = {
  Reason: 'dlq-reason',
  OriginalTopic: 'dlq-original-topic',
  OriginalPartition: 'dlq-original-partition',
  OriginalOffset: 'dlq-original-offset',
  ConsumerGroup: 'dlq-consumer-group',
} as const;

export type ReplayOutcome = 'applied' | 'duplicate' | 'dead_lettered';

/** Value of a REPLAY_RESULTS_TOPIC message (its key is the run id). */
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
