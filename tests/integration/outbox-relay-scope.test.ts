import { randomUUID } from 'node:crypto';
import { RpcPatterns, Topics, type InitializeTransactionResult, type RpcReply } from '@payments/contracts';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';

/**
 * The outbox relay runs only in services that publish. The webhook dispatcher announces nothing on
 * Kafka, so it must not poll its (empty) outbox: a row placed there stays unpublished while the
 * dispatcher works, whereas transaction-service relays its own events.
 */
describe('outbox relay placement', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start(['transaction-service', 'webhook-dispatcher']);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('the webhook dispatcher never relays its outbox; transaction-service does', async () => {
    const dispatcherDb = stack.db('webhook-dispatcher');
    const canary = randomUUID();
    await dispatcherDb.query(
      'INSERT INTO outbox_events (event_id, topic, message_key, payload) VALUES ($1, $2, $3, $4)',
      [canary, Topics.LedgerEntryCreated, 'canary', '{}'],
    );

    const client = stack.rpcClient('transaction-service');
    const reply = await client.request<RpcReply<InitializeTransactionResult>>(RpcPatterns.TransactionsInitialize, {
      ctx: { request_id: 'req_relay_scope', business_id: 9, mode: 'test', key_type: 'secret' },
      body: {
        amount: 1200,
        email: 'scope@example.com',
        currency: 'USD',
        payment_method_type: 'mobile_money',
        payment_method_code: 'ecocash',
        mobile_money_number: '0771000000',
        requested_response: 'success',
      },
    });
    client.close();
    if (!reply.ok) throw new Error(JSON.stringify(reply.error));

    // The dispatcher consuming the payment's events (relayed by transaction-service) is the barrier: a relay running
    // there would have been woken by each of those consumer commits (and would poll too).
    await waitFor(
      'the dispatcher to consume the payment’s events',
      async () => {
        const { rows } = await dispatcherDb.query('SELECT count(*)::int AS n FROM processed_events');
        return rows[0].n >= 3; // created (pending), processing, success
      },
      { timeoutMs: 60_000 },
    );

    const { rows: own } = await stack
      .db('transaction-service')
      .query('SELECT count(*)::int AS unpublished FROM outbox_events WHERE published_at IS NULL');
    expect(own[0].unpublished).toBe(0);
    const { rows } = await dispatcherDb.query('SELECT published_at FROM outbox_events WHERE event_id = $1', [canary]);
    expect(rows).toEqual([{ published_at: null }]);
  }, 90_000);
});
