import type { IHeaders, KafkaMessage, Producer } from 'kafkajs';
import {
  DeadLetterHeaders,
  REPLAY_RESULTS_TOPIC,
  ReplayHeaders,
  envelopeProblem,
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

/** A message's own headers, without the ones replay and dead-lettering add. */
export function ownHeaders(headers: IHeaders | undefined): IHeaders {
  const added = new Set<string>([...Object.values(ReplayHeaders), ...Object.values(DeadLetterHeaders)]);
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
      if (last && last[2] === outcome && last[1] + 1 === origin.seq) last[1] = origin.seq;
      else list.push([origin.seq, origin.seq, outcome]);
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
