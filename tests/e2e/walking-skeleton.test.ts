import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';

/**
 * The whole path through real PostgreSQL, Redis and Kafka: admin API → initialize through the
 * gateway → transaction-service (own DB, sandbox, outbox) → Kafka → split-ledger-service and
 * webhook-dispatcher (own DBs, idempotent consumers) → verify.
 */
describe('walking skeleton', () => {
  let stack: Stack;
  let keys: Awaited<ReturnType<Stack['createBusiness']>>;

  beforeAll(async () => {
    stack = await Stack.start();
    keys = await stack.createBusiness('Skeleton Store');
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  const ecocash = (reference: string, requested: 'success' | 'failed' = 'success') => ({
    amount: 1000,
    email: 'buyer@example.com',
    currency: 'USD',
    payment_method_type: 'mobile_money',
    payment_method_code: 'ecocash',
    mobile_money_number: '0771234567',
    requested_response: requested,
    transaction_reference: reference,
  });

  it('creates a business with four distinct keys of the documented form', () => {
    expect(keys.test.secret).toMatch(/^sk_test_[0-9A-Za-z]{32,}$/);
    expect(keys.test.public).toMatch(/^pk_test_[0-9A-Za-z]{32,}$/);
    expect(keys.live.secret).toMatch(/^sk_live_[0-9A-Za-z]{32,}$/);
    expect(keys.live.public).toMatch(/^pk_live_[0-9A-Za-z]{32,}$/);
  });

  it('initializes with the test secret key, settles in the sandbox and verifies as success', async () => {
    const init = await stack.api('POST', '/v1/transactions', { key: keys.test.secret, body: ecocash('order-1001') });
    expect(init.status).toBe(200);
    expect(init.body).toEqual({
      result: 'success',
      transaction_id: expect.stringMatching(/^txn_/),
      transaction_reference: 'order-1001',
      message: expect.any(String),
      total: 10.15, // 1000 minor units + 1.5 % ecocash fee = 1015 → 10.15 USD
      metadata: {},
      description: null,
    });
    expect(init.headers.get('x-request-id')).toMatch(/^req_/);

    const verified = await waitFor('the sandbox to settle the payment', async () => {
      const res = await stack.api('GET', '/v1/transactions/verify?reference=order-1001', { key: keys.test.secret });
      return res.body.status === 'success' ? res : undefined;
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      result: 'success',
      transaction_id: init.body.transaction_id,
      transaction_reference: 'order-1001',
      amount: 1000,
      charges: 15,
      total: 1015,
      currency: 'USD',
      status: 'success',
      emailAddress: 'buyer@example.com',
    });
    expect(new Date(verified.body.dateCreated as string).toISOString()).toBe(verified.body.dateCreated);

    // Both consumers received the whole life of the transaction through Kafka, each once.
    const ledger = await waitFor('the ledger to see the success', async () => {
      const { rows } = await stack
        .db('split-ledger-service')
        .query('SELECT status, version FROM ledger_transactions WHERE public_id = $1', [init.body.transaction_id]);
      return rows[0]?.status === 'success' ? rows[0] : undefined;
    });
    expect(ledger.version).toBe(3);
    const hooks = await waitFor('the dispatcher to record the events', async () => {
      const { rows } = await stack
        .db('webhook-dispatcher')
        .query(`SELECT event_type FROM webhook_events WHERE payload->>'transaction_id' = $1 ORDER BY event_type`, [
          init.body.transaction_id,
        ]);
      return rows.length === 7 ? rows.map((r) => r.event_type) : undefined;
    });
    expect(hooks).toEqual([
      'payment.completed',
      'payment.created',
      'payment.updated',
      'payment.updated',
      'transaction.pending',
      'transaction.processing',
      'transaction.success',
    ]);
  });

  it('writes one outbox event per status change, in order, with the previous status', async () => {
    const init = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: ecocash('order-1002', 'failed'),
    });
    expect(init.status).toBe(200);
    await waitFor('the sandbox to fail the payment', async () => {
      const res = await stack.api('GET', '/v1/transactions/verify?reference=order-1002', { key: keys.test.secret });
      return res.body.status === 'failed';
    });
    const { rows } = await stack.db('transaction-service').query(
      `SELECT payload->'data'->>'previous_status' AS prev, payload->'data'->>'status' AS status, published_at
         FROM outbox_events WHERE message_key = $1 ORDER BY id`,
      [init.body.transaction_id],
    );
    expect(rows.map((r) => [r.prev, r.status])).toEqual([
      [null, 'pending'],
      ['pending', 'processing'],
      ['processing', 'failed'],
    ]);
    await waitFor('the relay to publish them', async () => {
      const { rows: pending } = await stack
        .db('transaction-service')
        .query('SELECT 1 FROM outbox_events WHERE message_key = $1 AND published_at IS NULL', [
          init.body.transaction_id,
        ]);
      return pending.length === 0;
    });
  });

  it('lets a public key initialize but nothing else', async () => {
    // A public key may not choose the reference (tests/e2e/public-key-limits.test.ts): the server generates it.
    const { transaction_reference: _chosen, ...body } = ecocash('unused');
    const init = await stack.api<{ transaction_reference: string }>('POST', '/v1/transactions', {
      key: keys.test.public,
      body,
    });
    expect(init.status).toBe(200);
    const verify = await stack.api('GET', `/v1/transactions/verify?reference=${init.body.transaction_reference}`, {
      key: keys.test.public,
    });
    expect(verify.status).toBe(403);
    expect(verify.body).toMatchObject({ result: 'error', code: 'secret_key_required' });
  });

  it('keeps test and live data apart', async () => {
    const res = await stack.api('GET', '/v1/transactions/verify?reference=order-1001', { key: keys.live.secret });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: 'error', code: 'not_found', request_id: expect.stringMatching(/^req_/) });
  });

  it('serves health and Prometheus metrics on every app', async () => {
    for (const proc of stack.processes.values()) {
      const live = await fetch(proc.url('/health/live'));
      expect(live.status).toBe(200);
      const ready = await fetch(proc.url('/health/ready'));
      const body = (await ready.json()) as { checks: Record<string, string> };
      expect(ready.status).toBe(200);
      expect(body.checks.database).toBe('up');
      expect(body.checks.schema).toBe('up');
      if (proc.app !== 'gateway') expect(body.checks.kafka).toBe('up');
      if (proc.app !== 'transaction-service') expect(body.checks.redis).toBe('up');
      const metrics = await (await fetch(stack.metricsUrl(proc.app))).text();
      expect(metrics).toContain('process_cpu_user_seconds_total');
    }
    const txMetrics = await (await fetch(stack.app('transaction-service').url('/metrics'))).text();
    expect(txMetrics).toMatch(/outbox_events_relayed_total\{[^}]*topic="transaction.status_changed"[^}]*\} [1-9]/);
  });

  it('shuts every app down cleanly on SIGTERM (in-flight work finished, offsets committed)', async () => {
    for (const proc of [...stack.processes.values()].reverse()) {
      const code = await proc.stop();
      expect({ app: proc.app, code }).toEqual({ app: proc.app, code: 0 });
    }
  }, 90_000);
});
