import type { FramedRpcClient } from '@payments/platform';
import {
  RpcPatterns,
  type InitializeTransactionResult,
  type RpcReply,
  type TransactionView,
} from '@payments/contracts';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';

/** A pending payment nobody completes fails once TRANSACTION_EXPIRY has passed, with one event. */
describe('transaction expiry', () => {
  let stack: Stack;
  let client: FramedRpcClient;
  const ctx = { request_id: 'req_expiry', business_id: 11, mode: 'test', key_type: 'secret' };

  beforeAll(async () => {
    stack = await Stack.start(['transaction-service'], { TRANSACTION_EXPIRY: '1s' });
    client = stack.rpcClient('transaction-service');
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await stack?.stop();
  }, 120_000);

  const rpc = async <T>(pattern: string, body: unknown): Promise<T> => {
    const reply = await client.request<RpcReply<T>>(pattern, { ctx, body });
    if (!reply.ok) throw new Error(JSON.stringify(reply.error));
    return reply.data;
  };

  it('fails a pending transaction after TRANSACTION_EXPIRY', async () => {
    const created = await rpc<InitializeTransactionResult>(RpcPatterns.TransactionsInitialize, {
      amount: 900,
      email: 'late@example.com',
      currency: 'USD',
      payment_method_type: 'card',
      transaction_reference: 'expires-1',
    });
    expect(created.status).toBe('pending');
    const failed = await waitFor('the transaction to expire', async () => {
      const v = await rpc<TransactionView>(RpcPatterns.TransactionsVerify, { reference: 'expires-1' });
      return v.status === 'failed' ? v : undefined;
    });
    expect(failed.message).toBe('Transaction expired before payment');
    const { rows } = await stack
      .db('transaction-service')
      .query(
        `SELECT payload->'data'->>'previous_status' AS prev, payload->'data'->>'status' AS status ` +
          `FROM outbox_events WHERE message_key = $1 ORDER BY id`,
        [created.transaction_id],
      );
    expect(rows).toEqual([
      { prev: null, status: 'pending' },
      { prev: 'pending', status: 'failed' },
    ]);
  }, 30_000);
});
