import type { IHeaders, KafkaMessage, Producer } from 'kafkajs';
import {
  DeadLetterHeaders,
  REPLAY_RESULTS_TOPIC,
  ReplayHeaders,
  decodeReplayBundle,
  envelopeProblem,
  parseBundleHeader,
  parseReplayOrigin,
  type EventEnvelope,
  type ReplayOriginFields,
  type ReplayOutcome,
  type ReplayResult,
  type ReplayResultRanges,
} from '@payments/contracts';

/** A consumed message read as an event envelope, or why it is not one. */
export interface Decoded {
  message: KafkaMessage;
  event?: EventEnvelope;
  problem?: string;
}

export function decodeMessage(message: KafkaMessage): Decoded {
  let event: EventEnvelope;
  try {
    event = JSON.parse(message.value?.toString('utf8') ?? 'null');
  } catch {
    return { message, problem: 'value is not JSON' };
  }
  const problem = envelopeProblem(event);
  return problem ? { message, problem } : { message, event };
}

/** Consecutive items with the same key, in order (a replay batch's runs of one source topic). */
export function runsOf<T>(items: T[], key: (item: T) => string): T[][] {
  const runs: T[][] = [];
  for (const item of items) {
    const last = runs.at(-1);
    if (last && key(last[0]) === key(item)) last.push(item);
    else runs.push([item]);
  }
  return runs;
}

export interface ReplayOrigin extends ReplayOriginFields {
  /** Copied by an ops that writes one `replay-origin` header and reads outcomes as ranges. */
  ranged: boolean;
  /** How many sequence numbers from `seq` on it answers for (a bundle that cannot be read: all of its records). */
  span?: number;
}

const header = (headers: IHeaders | undefined, name: string): string | undefined => headers?.[name]?.toString();

/** The record a message of the group's replay topic copies (`topic` is that replay topic). */
export function replayOrigin(topic: string, message: KafkaMessage): ReplayOrigin {
  const h = message.headers;
  const packed = header(h, ReplayHeaders.Origin);
  const origin = packed === undefined ? undefined : parseReplayOrigin(packed);
  if (origin) return { ...origin, ranged: true };
  return {
    ranged: false,
    run: header(h, ReplayHeaders.Run) ?? 'unknown',
    topic: header(h, ReplayHeaders.SourceTopic) ?? topic,
    partition: Number(header(h, ReplayHeaders.SourcePartition) ?? -1),
    offset: header(h, ReplayHeaders.SourceOffset) ?? '-1',
    seq: /^\d{1,15}$/.test(header(h, ReplayHeaders.Sequence) ?? '') ? Number(header(h, ReplayHeaders.Sequence)) : null,
  };
}

/** One event of a batch of a group's replay topic: a record copied alone, or one of a bundle. */
export interface ReplayEntry {
  /** The copied record (one of a bundle is rebuilt from it: key, value and its own headers). */
  message: KafkaMessage;
  origin: ReplayOrigin;
  /** Why it cannot be applied, found before its value is read (a bundle that cannot be read). */
  problem?: string;
  /** The replay topic's offset this entry completes: set on a bundle's last record only. */
  resolves?: string;
}

/**
 * The events a batch of the replay topic `topic` carries, in order: each bundle opened into its
 * records (replay-bundle.ts). A bundle that cannot be read is one entry that answers for all of
 * its sequence numbers, so it is dead-lettered once and the copier still hears of every record.
 */
export function replayEntries(topic: string, messages: KafkaMessage[]): ReplayEntry[] {
  const entries: ReplayEntry[] = [];
  for (const message of messages) {
    const origin = replayOrigin(topic, message);
    const marked = header(message.headers, ReplayHeaders.Bundle);
    if (marked === undefined) {
      entries.push({ message, origin, resolves: message.offset });
      continue;
    }
    const bundle = parseBundleHeader(marked);
    // A bundle of another run: a dead letter of a whole bundle that an earlier ops copied again as
    // one record. That copy is one sequence number, so it is answered once (dead-lettered whole,
    // keeping the header: this release's `ops dlq replay` opens it).
    if (!bundle || !origin.ranged || bundle.run !== origin.run) {
      entries.push({
        message,
        origin,
        problem: `not a bundle of its run (replay-bundle: ${marked})`,
        resolves: message.offset,
      });
      continue;
    }
    const records = decodeReplayBundle(message.value);
    if (typeof records === 'string' || records.length !== bundle.count) {
      const problem =
        typeof records === 'string' ? records : `a replay bundle of ${bundle.count} that holds another count`;
      entries.push({ message, origin: { ...origin, span: bundle.count }, problem, resolves: message.offset });
      continue;
    }
    const last = records.length - 1;
    records.forEach((r, i) =>
      entries.push({
        message: { ...message, key: r.key, value: r.value, headers: r.headers } as KafkaMessage,
        origin: { ...origin, offset: r.offset, seq: origin.seq === null ? null : origin.seq + i },
        resolves: i === last ? message.offset : undefined,
      }),
    );
  }
  return entries;
}

/**
 * A message's own headers, without the ones replay and dead-lettering add; `replay-bundle` is
 * kept, so a dead letter of a whole bundle still says what its value is.
 */
export function ownHeaders(headers: IHeaders | undefined): IHeaders {
  const added = new Set<string>(
    [...Object.values(ReplayHeaders), ...Object.values(DeadLetterHeaders)].filter((h) => h !== ReplayHeaders.Bundle),
  );
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([k]) => !added.has(k)));
}

/**
 * Tells the ops CLI what became of replayed messages, in one request: for the records of a current
 * ops, runs of consecutive sequence numbers with the same outcome (ReplayResultRanges); for those
 * of an earlier ops, one message each (ReplayResult, a few hundred bytes), as it reads them.
 */
export async function reportReplayOutcomes(
  producer: Producer,
  topicPrefix: string,
  group: string,
  outcomes: { origin: ReplayOrigin; outcome: ReplayOutcome }[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const messages: { key: string; value: string }[] = [];
  const ranges = new Map<string, ReplayResultRanges['ranges']>();
  for (const { origin, outcome } of outcomes) {
    if (origin.ranged && origin.seq !== null) {
      const list = ranges.get(origin.run) ?? [];
      const last = list.at(-1);
      const through = origin.seq + (origin.span ?? 1) - 1;
      if (last && last[2] === outcome && last[1] + 1 === origin.seq) last[1] = through;
      else list.push([origin.seq, through, outcome]);
      ranges.set(origin.run, list);
      continue;
    }
    const result: ReplayResult = {
      run: origin.run,
      group,
      outcome,
      topic: origin.topic,
      partition: origin.partition,
      offset: origin.offset,
      seq: origin.seq,
    };
    messages.push({ key: origin.run, value: JSON.stringify(result) });
  }
  for (const [run, list] of ranges)
    messages.push({ key: run, value: JSON.stringify({ run, group, ranges: list } satisfies ReplayResultRanges) });
  await producer.send({ topic: `${topicPrefix}${REPLAY_RESULTS_TOPIC}`, acks: -1, messages });
}
