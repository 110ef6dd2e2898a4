import { randomUUID } from 'node:crypto';
import { Partitioners } from 'kafkajs';
import { Topics, type TransactionStatusChangedData, type TransactionStatusChangedEvent } from '@payments/contracts';
import type { Stack } from './stack';

/**
 * Event i of a synthetic history: pairs of created (pending) and succeeded events of transactions
 * of a business without callbacks or splits (999 999 unless told), occurring at `at`; transactions
 * are numbered from `firstTransaction` (0 unless told).
 */
export function replayEnvelope(
  i: number,
  at: string,
  businessId = 999_999,
  firstTransaction = 0,
): TransactionStatusChangedEvent {
  const n = firstTransaction + Math.floor(i / 2);
  const status = i % 2 === 0 ? 'pending' : 'success';
  const data: TransactionStatusChangedData = {
    transaction: {
      id: 900_000_000 + n,
      transaction_id: `txn_replay${String(n).padStart(14, '0')}`,
      transaction_reference: `replay-${n}`,
      business_id: businessId,
      mode: 'test',
      amount: 1000,
      charges: 15,
      total: 1015,
      currency: 'USD',
      status,
      message: 'replayed',
      email: 'replay@example.com',
      payment_method_type: 'card',
      payment_method_code: null,
      checkout_id: null,
      payment_link_id: null,
      link_splits: [],
      version: status === 'pending' ? 1 : 2,
      date_created: at,
      date_updated: at,
    },
    previous_status: status === 'pending' ? null : 'pending',
    status,
  };
  return {
    id: randomUUID(),
    type: Topics.TransactionStatusChanged,
    version: 1,
    occurred_at: at,
    producer: 'bench',
    mode: 'test',
    business_id: businessId,
    correlation_id: null,
    data,
  };
}

export function* history(
  count: number,
  businessId?: number,
  firstTransaction?: number,
): Generator<{ key: string; value: string; headers: Record<string, string> }> {
  const at = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const envelope = replayEnvelope(i, at, businessId, firstTransaction);
    const { transaction } = envelope.data as TransactionStatusChangedData;
    yield { key: transaction.transaction_id, value: JSON.stringify(envelope), headers: { 'event-id': envelope.id } };
  }
}

/** Puts `count` events of the synthetic history onto `topic` (base name), 2000 per request. */
export function produceHistory(
  stack: Stack,
  topic: string,
  count: number,
  businessId?: number,
  firstTransaction?: number,
): Promise<void> {
  return produceAll(stack, topic, history(count, businessId, firstTransaction));
}

/**
 * Puts `count` events of the synthetic history onto the group's dead-letter topic, as its consumer
 * would have dead-lettered them from `topic` (new event ids: none was applied before).
 */
export function produceDeadLetters(stack: Stack, group: string, topic: string, count: number): Promise<void> {
  function* letters() {
    let i = 0;
    for (const m of history(count)) {
      i++;
      const headers = {
        ...m.headers,
        'dlq-reason': 'database was down',
        'dlq-original-topic': `${stack.topicPrefix}${topic}`,
        'dlq-original-partition': String(i % 3),
        'dlq-original-offset': String(Math.floor(i / 3)),
      };
      yield { ...m, headers };
    }
  }
  return produceAll(stack, `${group}.dlq`, letters());
}

async function produceAll(
  stack: Stack,
  topic: string,
  messages: Iterable<{ key: string; value: string; headers: Record<string, string> }>,
): Promise<void> {
  const producer = stack.kafka().producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  try {
    let batch: { key: string; value: string; headers: Record<string, string> }[] = [];
    for (const message of messages) {
      batch.push(message);
      if (batch.length === 2000) {
        await producer.send({ topic: `${stack.topicPrefix}${topic}`, acks: 1, messages: batch });
        batch = [];
      }
    }
    if (batch.length) await producer.send({ topic: `${stack.topicPrefix}${topic}`, acks: 1, messages: batch });
  } finally {
    await producer.disconnect();
  }
}
