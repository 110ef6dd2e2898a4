import type { IHeaders, KafkaMessage, Producer } from 'kafkajs';
import { DeadLetterHeaders, REPLAY_RESULTS_TOPIC, ReplayHeaders, type ReplayOutcome, type ReplayResult } from '@payments/contracts';

export interface ReplayOrigin {
  run: string;
  topic: string;
  partition: number;
  offset: string;
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
  };
}

/** A message's own headers, without the ones replay and dead-lettering add. */
export function ownHeaders(headers: IHeaders | undefined): IHeaders {
  const added = new Set<string>([...Object.values(ReplayHeaders), ...Object.values(DeadLetterHeaders)]);
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([k]) => !added.has(k)));
}

/** Tells the ops CLI what became of one replayed message. */
export async function reportReplayOutcome(producer: Producer, topicPrefix: string, group: string, origin: ReplayOrigin, outcome: ReplayOutcome): Promise<void> {
  const result: ReplayResult = { run: origin.run, group, outcome, topic: origin.topic, partition: origin.partition, offset: origin.offset };
  await producer.send({ topic: `${topicPrefix}${REPLAY_RESULTS_TOPIC}`, acks: -1, messages: [{ key: origin.run, value: JSON.stringify(result) }] });
}
