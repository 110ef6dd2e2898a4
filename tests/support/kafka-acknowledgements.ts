import type { ProducerBatch, RecordMetadata } from 'kafkajs';

/**
 * What Kafka answers a `sendBatch` that it wrote whole: one entry per topic-partition of the request. The outbox relay
 * refuses an answer that leaves out a partition it sent to, so a fake producer answers this.
 */
export function acknowledgeAll(batch: ProducerBatch): RecordMetadata[] {
  const seen = new Set<string>();
  const out: RecordMetadata[] = [];
  for (const t of batch.topicMessages ?? []) {
    for (const m of t.messages) {
      const key = `${t.topic}/${m.partition}`;
      if (!seen.has(key)) out.push({ topicName: t.topic, partition: m.partition!, errorCode: 0 });
      seen.add(key);
    }
  }
  return out;
}
