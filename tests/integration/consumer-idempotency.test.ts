import { randomUUID } from 'node:crypto';
import type { Consumer, Producer } from 'kafkajs';
import { Topics, type EventEnvelope, type TransactionStatusChangedData } from '@payments/contracts';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';

function statusChanged(
  status: 'pending' | 'success',
  previous: 'processing' | null,
  version: number,
): EventEnvelope<string, TransactionStatusChangedData> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    type: Topics.TransactionStatusChanged,
    version: 1,
    occurred_at: now,
    producer: 'transaction-service',
    mode: 'test',
    business_id: 42,
    correlation_id: 'req_integration',
    data: {
      previous_status: previous,
      status,
      transaction: {
        id: 9001,
        transaction_id: 'txn_idempotency000000000001',
        transaction_reference: 'ref-idem-1',
        business_id: 42,
        mode: 'test',
        amount: 5000,
        charges: 75,
        total: 5075,
        currency: 'USD',
        status,
        message: 'test',
        email: 'buyer@example.com',
        payment_method_type: 'mobile_money',
        payment_method_code: 'ecocash',
        checkout_id: 'chk_x',
        payment_link_id: null,
        link_splits: [],
        version,
        date_created: now,
        date_updated: now,
      },
    },
  };
}

/** Reads one counter sample from an app's /metrics. */
async function counter(url: string, group: string, outcome: string): Promise<number> {
  const text = await (await fetch(url)).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('kafka_events_consumed_total{') &&
        l.includes(`group="${group}"`) &&
        l.includes(`outcome="${outcome}"`),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('idempotent consumers', () => {
  let stack: Stack;
  let producer: Producer;

  beforeAll(async () => {
    stack = await Stack.start(['split-ledger-service', 'webhook-dispatcher']);
    producer = stack.kafka().producer();
    await producer.connect();
  }, 120_000);

  afterAll(async () => {
    await producer?.disconnect();
    await stack?.stop();
  }, 120_000);

  const publish = (event: unknown, raw?: string) =>
    producer.send({
      topic: `${stack.topicPrefix}${Topics.TransactionStatusChanged}`,
      messages: [{ key: 'txn_idempotency000000000001', value: raw ?? JSON.stringify(event) }],
    });

  it('applies the same transaction.status_changed event once in each consumer, however often it arrives', async () => {
    const created = statusChanged('pending', null, 1);
    await publish(created);
    await publish(created);

    const ledgerMetrics = stack.app('split-ledger-service').url('/metrics');
    const hooksMetrics = stack.app('webhook-dispatcher').url('/metrics');
    await waitFor(
      'both consumers to see the event twice',
      async () =>
        (await counter(ledgerMetrics, 'split-ledger-service', 'applied')) === 1 &&
        (await counter(ledgerMetrics, 'split-ledger-service', 'duplicate')) === 1 &&
        (await counter(hooksMetrics, 'webhook-dispatcher', 'applied')) === 1 &&
        (await counter(hooksMetrics, 'webhook-dispatcher', 'duplicate')) === 1,
    );

    const ledger = stack.db('split-ledger-service');
    expect(
      (await ledger.query('SELECT count(*)::int AS n FROM processed_events WHERE event_id = $1', [created.id])).rows[0]
        .n,
    ).toBe(1);
    expect((await ledger.query('SELECT count(*)::int AS n FROM ledger_transactions WHERE id = 9001')).rows[0].n).toBe(
      1,
    );

    const hooks = stack.db('webhook-dispatcher');
    expect(
      (await hooks.query('SELECT count(*)::int AS n FROM processed_events WHERE event_id = $1', [created.id])).rows[0]
        .n,
    ).toBe(1);
    const types = (
      await hooks.query('SELECT event_type FROM webhook_events WHERE source_event_id = $1 ORDER BY event_type', [
        created.id,
      ])
    ).rows;
    expect(types.map((r) => r.event_type)).toEqual(['payment.created', 'transaction.pending']);
  });

  it('records a catalogue event once even when its inbox row is gone (pruned, or copied from elsewhere)', async () => {
    // Without the inbox row the dispatcher applies the event again: the catalogue rows' ids are
    // derived from the source event, so the primary key alone must keep them (and their
    // deliveries) from being written twice.
    const created = statusChanged('pending', null, 1);
    await publish(created);
    const hooks = stack.db('webhook-dispatcher');
    const hooksMetrics = stack.app('webhook-dispatcher').url('/metrics');
    const rows = async () =>
      (
        await hooks.query('SELECT id, event_type FROM webhook_events WHERE source_event_id = $1 ORDER BY event_type', [
          created.id,
        ])
      ).rows;
    await waitFor('the catalogue events', async () => (await rows()).length === 2);
    const first = await rows();
    const applied = await counter(hooksMetrics, 'webhook-dispatcher', 'applied');
    await hooks.query('DELETE FROM processed_events WHERE event_id = $1', [created.id]);

    await publish(created);
    await waitFor(
      'the event to be applied again',
      async () => (await counter(hooksMetrics, 'webhook-dispatcher', 'applied')) === applied + 1,
    );
    expect(await rows()).toEqual(first);
  });

  it('ignores an older status arriving after a newer one', async () => {
    const success = statusChanged('success', 'processing', 3);
    await publish(success);
    await waitFor('the ledger copy to reach success', async () => {
      const { rows } = await stack
        .db('split-ledger-service')
        .query('SELECT status, version FROM ledger_transactions WHERE id = 9001');
      return rows[0]?.status === 'success';
    });
    const stale = statusChanged('pending', null, 1); // a different event id, older version
    await publish(stale);
    await waitFor('the stale event to be consumed', async () => {
      const { rows } = await stack
        .db('split-ledger-service')
        .query('SELECT 1 FROM processed_events WHERE event_id = $1', [stale.id]);
      return rows.length === 1;
    });
    const { rows } = await stack
      .db('split-ledger-service')
      .query('SELECT status, version FROM ledger_transactions WHERE id = 9001');
    expect(rows[0]).toEqual({ status: 'success', version: 3 });
  });

  it('sends a message it cannot read to the dead-letter topic and keeps consuming', async () => {
    const dlqConsumer: Consumer = stack.kafka().consumer({ groupId: `${stack.id}-dlq-reader`, sessionTimeout: 6000 });
    const dead: { value: string; reason: string }[] = [];
    await dlqConsumer.connect();
    await dlqConsumer.subscribe({ topic: `${stack.topicPrefix}split-ledger-service.dlq`, fromBeginning: true });
    await dlqConsumer.run({
      eachMessage: async ({ message }) => {
        dead.push({
          value: message.value?.toString() ?? '',
          reason: message.headers?.['dlq-reason']?.toString() ?? '',
        });
      },
    });
    try {
      await publish(null, '{ this is not json');
      const after = statusChanged('pending', null, 1);
      after.data.transaction.id = 9002;
      after.data.transaction.transaction_id = 'txn_idempotency000000000002';
      await publish(after);

      await waitFor(
        'the poison message on the dead-letter topic',
        () => dead.find((d) => d.value === '{ this is not json'),
        { timeoutMs: 30_000 },
      );
      expect(dead.find((d) => d.value === '{ this is not json')?.reason).toBe('value is not JSON');
      await waitFor('the next event to be applied', async () => {
        const { rows } = await stack
          .db('split-ledger-service')
          .query('SELECT 1 FROM ledger_transactions WHERE id = 9002');
        return rows.length === 1;
      });
    } finally {
      await dlqConsumer.disconnect();
    }
  }, 60_000);
});
