import type { KafkaMessage } from 'kafkajs';
import {
  DeadLetterHeaders,
  ReplayHeaders,
  decodeReplayBundle,
  parseBundleHeader,
  parseReplayOrigin,
  replayTopicGroup,
} from '@payments/contracts';
import { ownHeaders } from '@payments/messaging';
import type { ReplayRecord } from './redeliver';

/** Where a dead letter is delivered again as coming from (the headers' text: a hand-made letter may say anything). */
export interface LetterOrigin {
  /** Full (prefixed) name of the topic whose handler applies it; undefined when the letter does not say. */
  topic: string | undefined;
  partition: string | undefined;
  offset: string | undefined;
  /** The replay topic the letter names as its topic, when the origin is its `replay-origin` header's instead. */
  replayTopic?: string;
}

const header = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();

/**
 * The origin of a dead letter: its dlq-original-* headers, unless they name a replay topic (an older service that did
 * not read `replay-origin`); then that header is the origin, so the letter is applied instead of coming back.
 */
export function letterOrigin(m: KafkaMessage, base: (topic: string) => string): LetterOrigin {
  const topic = header(m, DeadLetterHeaders.OriginalTopic);
  const own: LetterOrigin = {
    topic,
    partition: header(m, DeadLetterHeaders.OriginalPartition),
    offset: header(m, DeadLetterHeaders.OriginalOffset),
  };
  if (!topic || replayTopicGroup(base(topic)) === undefined) return own;
  const packed = header(m, ReplayHeaders.Origin);
  const origin = packed === undefined ? undefined : parseReplayOrigin(packed);
  // An origin that is a replay topic again has no handler either: the letter stays what it says.
  if (!origin || replayTopicGroup(base(origin.topic)) !== undefined) return own;
  return { topic: origin.topic, partition: String(origin.partition), offset: origin.offset, replayTopic: topic };
}

/**
 * What a dead letter delivers again: the letter itself, or, for a replay bundle dead-lettered whole
 * (by a service of an earlier release, which does not open bundles, or as a bundle of another run),
 * the records in it, each from its own offset. `topic` of the origin must be known (checked before).
 */
export function letterRecords(m: KafkaMessage, base: (topic: string) => string): ReplayRecord[] {
  const origin = letterOrigin(m, base);
  const at = { sourceTopic: origin.topic!, sourcePartition: Number(origin.partition ?? -1) };
  const one: ReplayRecord = {
    key: m.key,
    value: m.value,
    headers: ownHeaders(m.headers),
    ...at,
    sourceOffset: origin.offset ?? '-1',
  };
  const bundle = parseBundleHeader(header(m, ReplayHeaders.Bundle) ?? '');
  if (!bundle) return [one];
  const records = decodeReplayBundle(m.value);
  if (typeof records === 'string' || records.length !== bundle.count) return [one];
  return records.map((r) => ({
    key: r.key,
    value: r.value,
    headers: ownHeaders(r.headers),
    ...at,
    sourceOffset: r.offset,
  }));
}
