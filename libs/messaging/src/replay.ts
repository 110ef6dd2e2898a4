import type { IHeaders, KafkaMessage, Producer } from 'kafkajs';
import { DeadLetterHeaders, REPLAY_RESULTS_TOPIC, ReplayHeaders, envelopeProblem, type EventEnvelope, type ReplayOutcome, type ReplayResult } from '@payments/contracts';

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

export interface ReplayOrigin {
  run: string;
  topic: string;
  partition: number;
  offset: string;
  seq: number | null;
}

const header = (headers: IHeaders | undefined, name: string): string | undefined => headers?.[name]?.toString();

/** The record a message of the group's replay topic copies (`topic` is that replay topic). */
export function replayOrigin(topic: string, message: KafkaMessage): ReplayOrigin {
  const h = message.headers;
  return {
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

/** Tells the ops CLI what became of replayed messages, in one request (a few hundred bytes each). */
export async function reportReplayOutcomes(producer: Producer, topicPrefix: string, group: string, outcomes: { origin: ReplayOrigin; outcome: ReplayOutcome }[]): Promise<void> {
  if (outcomes.length === 0) return;
  const messages = outcomes.map(({ origin, outcome }) => {
    const result: ReplayResult = { run: origin.run, group, outcome, topic: origin.topic, partition: origin.partition, offset: origin.offset, seq: origin.seq };
    return { key: origin.run, value: JSON.stringify(result) };
  });
  await producer.send({ topic: `${topicPrefix}${REPLAY_RESULTS_TOPIC}`, acks: -1, messages });
}
