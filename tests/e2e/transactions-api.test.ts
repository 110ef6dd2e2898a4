import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { sandboxPayment, settled as settledPayment } from '../support/payments';

type Keys = Awaited<ReturnType<Stack['createBusiness']>>;
type Body = Record<string, unknown>;

/** The merchant payment API beyond the skeleton: list, fetch, refunds and payment links. */
describe('transactions API', () => {
  let stack: Stack;
  let keys: Keys;
  let partner: Keys;

  const pay = (reference: string, amount = 1000, extra: Body = {}) =>
    stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: sandboxPayment(reference, { amount, ...extra }),
    });
  const settled = (reference: string, status = 'success') =>
    settledPayment(stack, keys.test.secret, reference, { status });

  beforeAll(async () => {
    stack = await Stack.start();
    [keys, partner] = [await stack.createBusiness('Shop'), await stack.createBusiness('Partner')];
    for (const ref of ['list-1', 'list-2', 'list-3']) expect((await pay(ref, 1234)).status).toBe(200);
    await Promise.all(['list-1', 'list-2', 'list-3'].map((r) => settled(r)));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  describe('GET /v1/transactions/list', () => {
    it('lists newest first with major-unit decimal strings and details', async () => {
      const res = await stack.api<{ result: string; transactions: Body[] }>('GET', '/v1/transactions/list', {
        key: keys.test.secret,
      });
      expect(res.status).toBe(200);
      expect(res.body.result).toBe('success');
      const refs = res.body.transactions.map((t) => (t.details as Body).transaction_reference);
      expect(refs.slice(0, 3)).toEqual(['list-3', 'list-2', 'list-1']);
      expect(res.body.transactions[0]).toEqual({
        transaction_id: expect.stringMatching(/^txn_/),
        amount: '12.34',
        currency: 'USD',
        status: 'success',
        message: 'Payment successful',
        metadata: {},
        description: null,
        details: expect.objectContaining({
          transaction_reference: 'list-3',
          charges: '0.19',
          total: '12.53',
          payment_method_code: 'ecocash',
        }),
      });
    });

    it('honours limit and inclusive UTC day bounds', async () => {
      const one = await stack.api<{ transactions: Body[] }>('GET', '/v1/transactions/list?limit=1', {
        key: keys.test.secret,
      });
      expect(one.body.transactions).toHaveLength(1);
      const today = new Date().toISOString().slice(0, 10);
      const todayOnly = await stack.api<{ transactions: Body[] }>(
        'GET',
        `/v1/transactions/list?start_date=${today}&end_date=${today}`,
        { key: keys.test.secret },
      );
      expect(todayOnly.body.transactions.length).toBeGreaterThanOrEqual(3);
      const past = await stack.api<{ transactions: Body[] }>(
        'GET',
        '/v1/transactions/list?start_date=2020-01-01&end_date=2020-01-31',
        { key: keys.test.secret },
      );
      expect(past.body.transactions).toEqual([]);
    });

    it.each([
      ['limit=0'],
      ['limit=501'],
      ['limit=abc'],
      ['limit=1.5'],
      ['start_date=2026-02-30'],
      ['start_date=yesterday'],
      ['start_date=2026-05-02&end_date=2026-05-01'],
      ['colour=blue'],
    ])('400 for %s', async (query) => {
      const res = await stack.api('GET', `/v1/transactions/list?${query}`, { key: keys.test.secret });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'validation_error' });
    });

    it('shows nothing of another business or of live mode', async () => {
      const other = await stack.api<{ transactions: Body[] }>('GET', '/v1/transactions/list', {
        key: partner.test.secret,
      });
      expect(other.body.transactions).toEqual([]);
      const live = await stack.api<{ transactions: Body[] }>('GET', '/v1/transactions/list', { key: keys.live.secret });
      expect(live.body.transactions).toEqual([]);
    });
  });

  describe('GET /v1/transactions/fetch', () => {
    it('returns the Transaction model of the spec', async () => {
      const verified = await settled('list-1');
      const res = await stack.api('GET', `/v1/transactions/fetch?publicId=${verified.transaction_id}`, {
        key: keys.test.secret,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        result: 'success',
        transactionId: verified.transaction_id,
        transactionReference: 'list-1',
        amount: 1234,
        charges: 19,
        total: 1253,
        currency: 'USD',
        emailAddress: 'buyer@example.com',
        status: 'success',
        checkoutId: expect.stringMatching(/^chk_/),
        successUrl: null,
        failureUrl: null,
        dateCreated: verified.dateCreated,
        amount_refunded: 0,
        metadata: {},
        description: null,
      });
    });

    it('404 for an unknown id or another business’s id; 400 without publicId', async () => {
      const verified = await settled('list-1');
      expect(
        (await stack.api('GET', '/v1/transactions/fetch?publicId=txn_nope', { key: keys.test.secret })).status,
      ).toBe(404);
      expect(
        (
          await stack.api('GET', `/v1/transactions/fetch?publicId=${verified.transaction_id}`, {
            key: partner.test.secret,
          })
        ).status,
      ).toBe(404);
      expect((await stack.api('GET', '/v1/transactions/fetch', { key: keys.test.secret })).status).toBe(400);
    });
  });

  describe('refunds', () => {
    it('refunds part of a successful payment, settles it, and refuses more than what is left', async () => {
      await pay('refund-1', 5000);
      await settled('refund-1');
      const first = await stack.api('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'refund-1', amount: 3000 },
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        result: 'success',
        message: expect.any(String),
        refund_id: expect.stringMatching(/^rfd_/),
        status: 'pending',
        amount: 3000,
        reason: null,
        metadata: {},
        description: null,
      });

      const refundId = first.body.refund_id as string;
      const done = await waitFor('the sandbox to settle the refund', async () => {
        const res = await stack.api('GET', `/v1/transactions/refunds/${refundId}`, { key: keys.test.secret });
        return res.body.status === 'success' ? res.body : undefined;
      });
      expect(done).toMatchObject({
        result: 'success',
        refund_id: refundId,
        amount: 3000,
        currency: 'USD',
        transaction_reference: 'refund-1',
      });

      const tooMuch = await stack.api('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'refund-1', amount: 2001 },
      });
      expect(tooMuch.status).toBe(422);
      expect(tooMuch.body).toMatchObject({ code: 'refund_exceeds_amount' });
      const rest = await stack.api('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'refund-1', amount: 2000 },
      });
      expect(rest.status).toBe(200);

      const events = await stack.db('transaction-service').query(
        `SELECT payload->'data'->>'previous_status' AS prev, payload->'data'->>'status' AS status FROM outbox_events
          WHERE topic = 'refund.status_changed' AND payload->'data'->'refund'->>'refund_id' = $1 ORDER BY id`,
        [refundId],
      );
      expect(events.rows).toEqual([
        { prev: null, status: 'pending' },
        { prev: 'pending', status: 'success' },
      ]);
    });

    it('never lets concurrent refunds exceed the amount', async () => {
      await pay('refund-race', 1000);
      await settled('refund-race');
      const attempts = await Promise.all(
        Array.from({ length: 8 }, () =>
          stack.api('POST', '/v1/transactions/refund', {
            key: keys.test.secret,
            body: { transaction_reference: 'refund-race', amount: 300 },
          }),
        ),
      );
      const statuses = attempts.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(statuses.filter((s) => s === 422)).toHaveLength(5);
      const { rows } = await stack
        .db('transaction-service')
        .query(
          'SELECT sum(r.amount)::int AS refunded FROM refunds r ' +
            "JOIN transactions t ON t.id = r.transaction_id WHERE t.reference = 'refund-race'",
        );
      expect(rows[0].refunded).toBe(900);
    });

    it('422 for a transaction that is not successful; 404 for unknown ones; 400 for bad amounts', async () => {
      await pay('refund-failed', 1000, { requested_response: 'failed' });
      await settled('refund-failed', 'failed');
      const res = await stack.api('POST', '/v1/transactions/refund', {
        key: keys.test.secret,
        body: { transaction_reference: 'refund-failed', amount: 100 },
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'transaction_not_refundable' });
      expect(
        (
          await stack.api('POST', '/v1/transactions/refund', {
            key: keys.test.secret,
            body: { transaction_reference: 'nope', amount: 100 },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await stack.api('POST', '/v1/transactions/refund', {
            key: partner.test.secret,
            body: { transaction_reference: 'refund-1', amount: 1 },
          })
        ).status,
      ).toBe(404);
      for (const amount of [0, -5, 1.5, '100']) {
        const bad = await stack.api('POST', '/v1/transactions/refund', {
          key: keys.test.secret,
          body: { transaction_reference: 'refund-1', amount },
        });
        expect(bad.status).toBe(400);
      }
      expect(
        (await stack.api('GET', '/v1/transactions/refunds/rfd_doesnotexist000', { key: keys.test.secret })).status,
      ).toBe(404);
    });
  });

  describe('POST /v1/links', () => {
    it('creates a link with splits and answers the spec fields', async () => {
      const res = await stack.api('POST', '/v1/links', {
        key: keys.test.secret,
        body: {
          amount: 10_000,
          currency: 'USD',
          description: 'Concert ticket',
          splits: [{ business_id: partner.id, type: 'percentage', value: 1000, description: 'promoter' }],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        result: 'success',
        payment_link_id: expect.stringMatching(/^plink_/),
        hosted_payment_link: `${stack.gatewayUrl}/checkout?checkout_id=${res.body.payment_link_id}`,
        message: 'Payment link created: amount 100.00 USD, charges 2.50 USD, total 102.50 USD',
        description: expect.any(String),
        metadata: {},
      });
    });

    it('creates a link without splits', async () => {
      const res = await stack.api('POST', '/v1/links', {
        key: keys.test.secret,
        body: { amount: 500, currency: 'ZAR', description: 'Coffee' },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([
        'description',
        'hosted_payment_link',
        'message',
        'metadata',
        'payment_link_id',
        'result',
      ]);
    });

    it.each([
      [{ business_id: 999_999, type: 'percentage', value: 100 }, 'splits.0.business_id'],
      [{ business_id: 'PARTNER', type: 'percentage', value: 0 }, 'splits.0.value'],
      [{ business_id: 'PARTNER', type: 'percentage', value: 10_001 }, 'splits.0.value'],
      [{ business_id: 'PARTNER', type: 'share', value: 100 }, 'splits.0.type'],
      [{ business_id: 'PARTNER', type: 'fixed', value: 20_000 }, 'splits'],
      [{ business_id: 'SELF', type: 'fixed', value: 10 }, 'splits'],
    ])('400 for split %j', async (split, field) => {
      const id =
        split.business_id === 'PARTNER' ? partner.id : split.business_id === 'SELF' ? keys.id : split.business_id;
      const res = await stack.api<{ errors: { field: string }[] } & Body>('POST', '/v1/links', {
        key: keys.test.secret,
        body: { amount: 10_000, currency: 'USD', description: 'x', splits: [{ ...split, business_id: id }] },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e) => e.field)).toContain(field);
    });

    it('400 for a missing description, a bad currency or an unknown field', async () => {
      for (const body of [
        { amount: 100, currency: 'USD' },
        { amount: 100, currency: 'usd', description: 'x' },
        { amount: 100, currency: 'USD', description: 'x', colour: 1 },
      ]) {
        expect((await stack.api('POST', '/v1/links', { key: keys.test.secret, body })).status).toBe(400);
      }
    });

    it('403 for a public key', async () => {
      const res = await stack.api('POST', '/v1/links', {
        key: keys.test.public,
        body: { amount: 100, currency: 'USD', description: 'x' },
      });
      expect(res.status).toBe(403);
    });
  });

  it('returns checkout_url when the customer has to act, and pending stays pending', async () => {
    const res = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: {
        amount: 700,
        email: 'card@example.com',
        currency: 'USD',
        payment_method_type: 'card',
        transaction_reference: 'card-1',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.checkout_url).toMatch(new RegExp(`^${stack.gatewayUrl}/checkout\\?checkout_id=chk_`));
    const v = await stack.api('GET', '/v1/transactions/verify?reference=card-1', { key: keys.test.secret });
    expect(v.body.status).toBe('pending');
  });
});
