import { randomUUID } from 'node:crypto';
import { Partitioners } from 'kafkajs';
import { Topics, type EventEnvelope, type TransactionStatusChangedData } from '@payments/contracts';
import type { AppName } from '../support/processes';
import type { Stack } from '../support/stack';
import type { Report } from './report';

const CONSUMERS: AppName[] = ['split-ledger-service', 'webhook-dispatcher'];

/**
 * Event i of a synthetic history: pairs of created (pending) and succeeded events of transactions
 * of a business without callbacks or splits, occurring at `at`.
 */
export function replayEnvelope(i: number, at: string): EventEnvelope {
  const n = Math.floor(i / 2);
  const status = i % 2 === 0 ? 'pending' : 'success';
  const data: TransactionStatusChangedData = {
    transaction: {
      id: 900_000_000 + n, transaction_id: `txn_replay${String(n).padStart(14, '0')}`, transaction_reference: `replay-${n}`, business_id: 999_999, mode: 'test', amount: 1000, charges: 15, total: 1015,
      currency: 'USD', status, message: 'replayed', email: 'replay@example.com', payment_method_type: 'card', payment_method_code: null, checkout_id: null,
      payment_link_id: null, link_splits: [], version: status === 'pending' ? 1 : 2, date_created: at, date_updated: at,
    },
    previous_status: status === 'pending' ? null : 'pending',
    status,
  };
  return { id: randomUUID(), type: Topics.TransactionStatusChanged, version: 1, occurred_at: at, producer: 'bench', mode: 'test', business_id: 999_999, correlation_id: null, data };
}

function* history(count: number): Generator<{ key: string; value: string; headers: Record<string, string> }> {
  const at = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const envelope = replayEnvelope(i, at);
    const { transaction } = envelope.data as TransactionStatusChangedData;
    yield { key: transaction.transaction_id, value: JSON.stringify(envelope), headers: { 'event-id': envelope.id } };
  }
}

/**
 * (c) replay: with both consumers stopped, `count` events go onto the transaction topic; then each
 * consumer is started alone and its rate is measured from the inbox (processed_events) rows it adds.
 */
export async function benchReplay(stack: Stack, report: Report, count: number, maxSeconds: number): Promise<void> {
  for (const app of CONSUMERS) await stack.app(app).stop();
  const producer = stack.kafka().producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  let batch: { key: string; value: string; headers: Record<string, string> }[] = [];
  for (const message of history(count)) {
    batch.push(message);
    if (batch.length === 2000) {
      await producer.send({ topic: `${stack.topicPrefix}${Topics.TransactionStatusChanged}`, acks: 1, messages: batch });
      batch = [];
    }
  }
  if (batch.length) await producer.send({ topic: `${stack.topicPrefix}${Topics.TransactionStatusChanged}`, acks: 1, messages: batch });
  await producer.disconnect();

  for (const app of CONSUMERS) {
    const db = stack.db(app);
    const [{ n: before }] = (await db.query('SELECT count(*)::int AS n FROM processed_events')).rows;
    await stack.startApp(app);
    const deadline = Date.now() + maxSeconds * 1000;
    let first: { at: number; n: number } | undefined;
    let last = { at: Date.now(), n: 0 };
    while (Date.now() < deadline) {
      const [{ n }] = (await db.query('SELECT count(*)::int - $1 AS n FROM processed_events', [before])).rows;
      last = { at: Date.now(), n };
      if (process.env.BENCH_REPLAY_TRACE) process.stderr.write(`trace ${app} ${last.at} ${n}\n`);
      if (!first && n > 0) first = last;
      if (n >= count) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const rate = first && last.at > first.at ? (last.n - first.n) / ((last.at - first.at) / 1000) : NaN;
    report.add({
      section: 'replay',
      name: `${app} consumer`,
      value: rate,
      unit: 'events/s',
      target: { op: '>=', value: 10_000 },
      note: last.n >= count ? `${count} events` : `only ${last.n} of ${count} events within ${maxSeconds} s`,
    });
    await stack.app(app).stop();
  }
}
