import type { FramedRpcClient } from '@payments/platform';
import type { Consumer } from 'kafkajs';
import {
  RpcPatterns,
  Topics,
  type EventEnvelope,
  type InitializeTransactionResult,
  type RpcReply,
  type TransactionStatusChangedData,
} from '@payments/contracts';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';

/**
 * The transactional outbox survives a crash: status changes committed while the relay had not
 * yet published them reach Kafka after the service is killed and started again.
 */
describe('transactional outbox', () => {
  let stack: Stack;
  let consumer: Consumer;
  const received: EventEnvelope<string, TransactionStatusChangedData>[] = [];

  beforeAll(async () => {
    // The relay is held back so the kill lands after the commit and before any publish.
    stack = await Stack.start(['transaction-service'], {});
    await stack.app('transaction-service').stop();
    await stack.startApp('transaction-service', { OUTBOX_RELAY_ENABLED: 'false' });
  }, 120_000);

  afterAll(async () => {
    await consumer?.disconnect();
    await stack?.stop();
  }, 120_000);

  it('publishes committed events after a kill -9 and restart, in order, nothing lost', async () => {
    const client: FramedRpcClient = stack.rpcClient('transaction-service');
    const reply = await client.request<RpcReply<InitializeTransactionResult>>(RpcPatterns.TransactionsInitialize, {
      ctx: { request_id: 'req_outbox_crash', business_id: 7, mode: 'test', key_type: 'secret' },
      body: {
        amount: 2500,
        email: 'crash@example.com',
        currency: 'USD',
        payment_method_type: 'mobile_money',
        payment_method_code: 'ecocash',
        mobile_money_number: '0771000000',
        requested_response: 'success',
      },
    });
    client.close();
    if (!reply.ok) throw new Error(JSON.stringify(reply.error));
    const txId = reply.data.transaction_id;

    const db = stack.db('transaction-service');
    // The sandbox settles while the relay is off: three committed, unpublished events.
    await waitFor('three committed events in the outbox', async () => {
      const { rows } = await db.query(
        'SELECT count(*)::int AS n FROM outbox_events WHERE message_key = $1 AND published_at IS NULL',
        [txId],
      );
      return rows[0].n === 3;
    });

    await stack.app('transaction-service').kill();

    consumer = stack.kafka().consumer({ groupId: `${stack.id}-outbox-check`, sessionTimeout: 6000 });
    await consumer.connect();
    await consumer.subscribe({ topic: `${stack.topicPrefix}${Topics.TransactionStatusChanged}`, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const env = JSON.parse(message.value!.toString());
        if (env.data?.transaction?.transaction_id === txId) received.push(env);
      },
    });

    await stack.startApp('transaction-service', { OUTBOX_RELAY_ENABLED: 'true' });
    await waitFor('the three events on Kafka', () => received.length >= 3, { timeoutMs: 30_000 });

    expect(received.map((e) => [e.data.previous_status, e.data.status])).toEqual([
      [null, 'pending'],
      ['pending', 'processing'],
      ['processing', 'success'],
    ]);
    expect(new Set(received.map((e) => e.id)).size).toBe(3);
    expect(received.every((e) => e.correlation_id === 'req_outbox_crash' || e.data.status === 'success')).toBe(true);
    const { rows } = await db.query(
      'SELECT count(*)::int AS n FROM outbox_events WHERE message_key = $1 AND published_at IS NULL',
      [txId],
    );
    expect(rows[0].n).toBe(0);
  }, 90_000);
});
