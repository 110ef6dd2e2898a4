import type { PoolClient } from 'pg';
import { payAndSettle, sandboxPayment } from '../support/payments';
import { Stack, type ApiResponse } from '../support/stack';
import { waitFor } from '../support/wait';

type Body = Record<string, unknown>;

/**
 * A request the gateway stopped waiting for may still be applied by the service: the answer says so
 * (504 outcome_unknown), a same-key retry gets 409 while the first attempt may still commit, then
 * the real outcome, and there is always exactly one payment or refund. A test connection holds the
 * service's table to outlast RPC_TIMEOUT_MS (2 s here; RPC_DEADLINE_MARGIN_MS is 2 s).
 */
describe('a request whose outcome is unknown: the retry with the same key gets the real outcome', () => {
  let stack: Stack;
  let keys: Awaited<ReturnType<Stack['createBusiness']>>;

  beforeAll(async () => {
    stack = await Stack.start(['transaction-service', 'gateway'], { RPC_TIMEOUT_MS: '2000', SANDBOX_SETTLE_MS: '200' });
    keys = await stack.createBusiness('Outcome Unknown Ltd');
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  /** Runs `fn` while a test connection holds `lock` (statements run in one transaction), then releases it. */
  async function holding<T>(lock: string[], fn: (held: PoolClient) => Promise<T>): Promise<T> {
    const held = await stack.db('transaction-service').connect();
    try {
      await held.query('BEGIN');
      for (const sql of lock) await held.query(sql);
      return await fn(held);
    } finally {
      await held.query('ROLLBACK').catch(() => undefined);
      held.release();
    }
  }

  /** Statements of the service waiting on a lock held by the test. */
  async function waitingStatements(table: string): Promise<number> {
    const { rows } = await stack
      .db('transaction-service')
      .query<{ n: string }>(
        'SELECT count(*) AS n FROM pg_stat_activity ' +
          "WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE $1",
        [`%${table}%`],
      );
    return Number(rows[0].n);
  }

  const post = (path: string, key: string, idempotencyKey: string, body: Body): Promise<ApiResponse> =>
    stack.api('POST', path, { key, body, headers: { 'idempotency-key': idempotencyKey } });

  /** Retries with the same key until the answer is no longer 409; every 409 meanwhile says when to come back. */
  async function retryUntilKnown(path: string, key: string, idempotencyKey: string, body: Body): Promise<ApiResponse> {
    return waitFor(
      `the outcome of ${idempotencyKey}`,
      async () => {
        const res = await post(path, key, idempotencyKey, body);
        if (res.status !== 409) return res;
        expect(res.body).toMatchObject({ code: 'idempotency_in_progress' });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        return undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
  }

  function expectOutcomeUnknown(res: ApiResponse): void {
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({
      result: 'error',
      code: 'outcome_unknown',
      message: expect.stringContaining('same Idempotency-Key'),
    });
    expect(String(res.body.message)).not.toMatch(/try again$/);
  }

  it('initialize committed after the gateway gave up: 504, 409, then that same payment, never a second', async () => {
    const body = sandboxPayment('late-commit-1');
    const first = await holding(['LOCK TABLE transactions IN SHARE MODE'], async () => {
      const res = await post('/v1/transactions', keys.test.secret, 'K-late-1', body);
      // Released before the deadline plus margin: the service's insert, still waiting, commits now.
      return res;
    });
    expectOutcomeUnknown(first);
    // At once: the first attempt may still be committing, so the key is not free, and the answer is not replayed.
    const meanwhile = await post('/v1/transactions', keys.test.secret, 'K-late-1', body);
    expect(meanwhile.status).toBe(409);
    const known = await retryUntilKnown('/v1/transactions', keys.test.secret, 'K-late-1', body);
    expect(known.status).toBe(200);
    expect(known.body).toMatchObject({ result: 'success', transaction_reference: 'late-commit-1' });
    const verified = await stack.api('GET', '/v1/transactions/verify?reference=late-commit-1', {
      key: keys.test.secret,
    });
    expect(verified.status).toBe(200);
    expect(known.body.transaction_id).toBe(verified.body.transaction_id);
    const { rows } = await stack
      .db('transaction-service')
      .query("SELECT count(*)::int AS n FROM transactions WHERE reference = 'late-commit-1'");
    expect(rows[0].n).toBe(1);
    // Later retries replay the kept answer.
    const replay = await post('/v1/transactions', keys.test.secret, 'K-late-1', body);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  }, 60_000);

  it('public key, no reference: first try cancelled at its deadline; the retry creates just one payment', async () => {
    const { transaction_reference: _ignored, requested_response: _test, ...body } = sandboxPayment('unused');
    const before = await stack
      .db('transaction-service')
      .query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE business_id = $1', [keys.id]);
    const first = await holding(['LOCK TABLE transactions IN SHARE MODE'], async () => {
      const res = await post('/v1/transactions', keys.test.public, 'K-public-1', body);
      // The service cancels its insert RPC_DEADLINE_MARGIN_MS after the deadline: nothing waits on the lock then.
      await waitFor('the insert to be cancelled', async () => (await waitingStatements('transactions')) === 0, {
        timeoutMs: 10_000,
      });
      return res;
    });
    expectOutcomeUnknown(first);
    const known = await retryUntilKnown('/v1/transactions', keys.test.public, 'K-public-1', body);
    expect(known.status).toBe(200);
    const after = await stack
      .db('transaction-service')
      .query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE business_id = $1', [keys.id]);
    expect(after.rows[0].n - before.rows[0].n).toBe(1);
    // The same key with another body is still refused as a reuse.
    const reused = await post('/v1/transactions', keys.test.public, 'K-public-1', { ...body, amount: 999 });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ code: 'idempotency_key_reused' });
  }, 60_000);

  it('a refund committed after the gateway gave up: the retry gets that refund, and there is one', async () => {
    await payAndSettle(stack, keys.test.secret, 'refund-late-1');
    const body = { transaction_reference: 'refund-late-1', amount: 400 };
    const first = await holding(["SELECT 1 FROM transactions WHERE reference = 'refund-late-1' FOR UPDATE"], () =>
      post('/v1/transactions/refund', keys.test.secret, 'R-late-1', body),
    );
    expectOutcomeUnknown(first);
    const known = await retryUntilKnown('/v1/transactions/refund', keys.test.secret, 'R-late-1', body);
    expect(known.status).toBe(200);
    expect(known.body).toMatchObject({ refund_id: expect.stringMatching(/^rfd_/), amount: 400 });
    const listed = await stack.api<{ refunds: Body[] }>(
      'GET',
      '/v1/transactions/refunds?transaction_reference=refund-late-1',
      { key: keys.test.secret },
    );
    expect(listed.body.refunds.map((r) => r.refund_id)).toEqual([known.body.refund_id]);
  }, 60_000);

  it('a refund cancelled at its deadline is not applied; the retry applies it once', async () => {
    await payAndSettle(stack, keys.test.secret, 'refund-cancel-1');
    const body = { transaction_reference: 'refund-cancel-1', amount: 300 };
    const first = await holding(
      ["SELECT 1 FROM transactions WHERE reference = 'refund-cancel-1' FOR UPDATE"],
      async () => {
        const res = await post('/v1/transactions/refund', keys.test.secret, 'R-cancel-1', body);
        await waitFor('the refund to be cancelled', async () => (await waitingStatements('transactions')) === 0, {
          timeoutMs: 10_000,
        });
        return res;
      },
    );
    expectOutcomeUnknown(first);
    const known = await retryUntilKnown('/v1/transactions/refund', keys.test.secret, 'R-cancel-1', body);
    expect(known.status).toBe(200);
    const listed = await stack.api<{ refunds: Body[] }>(
      'GET',
      '/v1/transactions/refunds?transaction_reference=refund-cancel-1',
      { key: keys.test.secret },
    );
    expect(listed.body.refunds).toHaveLength(1);
  }, 60_000);
});
