import { Stack } from '../support/stack';
import { expectError } from '../support/errors';

/** One error model (docs/contract.md, Errors) on every kind of refusal, and a refused request stores nothing. */
describe('gateway error model', () => {
  let stack: Stack;
  let keys: Awaited<ReturnType<Stack['createBusiness']>>;

  const valid = {
    amount: 1000,
    email: 'buyer@example.com',
    currency: 'USD',
    payment_method_type: 'mobile_money',
    payment_method_code: 'ecocash',
    mobile_money_number: '0771234567',
  };

  const transactionCount = async () =>
    (await stack.db('transaction-service').query('SELECT count(*)::int AS n FROM transactions')).rows[0].n as number;

  beforeAll(async () => {
    stack = await Stack.start();
    keys = await stack.createBusiness('Errors Ltd');
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('401 without a key, with a malformed key and with an unknown key', async () => {
    expectError(await stack.api('POST', '/v1/transactions', { body: valid }), 401, 'invalid_api_key');
    expectError(await stack.api('POST', '/v1/transactions', { key: 'not-a-key', body: valid }), 401, 'invalid_api_key');
    expectError(
      await stack.api('POST', '/v1/transactions', { key: `sk_test_${'x'.repeat(40)}`, body: valid }),
      401,
      'invalid_api_key',
    );
  });

  it('404 for an unknown route', async () => {
    expectError(await stack.api('GET', '/v1/nothing-here', { key: keys.test.secret }), 404, 'not_found');
  });

  it('400 for malformed JSON and for a body that is not an object', async () => {
    expectError(
      await stack.api('POST', '/v1/transactions', { key: keys.test.secret, rawBody: '{"amount": 10,' }),
      400,
      'validation_error',
    );
    expectError(
      await stack.api('POST', '/v1/transactions', { key: keys.test.secret, rawBody: '[1,2,3]' }),
      400,
      'validation_error',
    );
  });

  it('413 for a body over 64 KiB', async () => {
    const res = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: { ...valid, description: 'x'.repeat(70 * 1024) },
    });
    expectError(res, 413, 'payload_too_large');
  });

  it('400 with one entry per field problem, unknown fields included', async () => {
    const res = await stack.api<{ errors: { field: string }[] } & Record<string, unknown>>('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: { amount: '1000', email: 'not-an-email', currency: 'XXX', colour: 'blue' },
    });
    expectError(res, 400, 'validation_error');
    expect(res.body.errors.map((e) => e.field).sort()).toEqual(['amount', 'colour', 'currency', 'email']);
  });

  it('names the first broken rule: required, then type, then range', async () => {
    const { amount: _omit, ...withoutAmount } = valid;
    const missing = await stack.api('POST', '/v1/transactions', { key: keys.test.secret, body: withoutAmount });
    expectError(missing, 400, 'validation_error');
    expect(missing.body.message).toBe('amount is required');
    const text = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: { ...valid, amount: '1000' },
    });
    expectError(text, 400, 'validation_error');
    expect(text.body.message).toMatch(/^amount must be a positive integer/);
    const huge = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: { ...valid, amount: 10 ** 13 },
    });
    expectError(huge, 400, 'validation_error');
    expect(huge.body.message).toMatch(/^amount must be at most/);
  });

  it('400 when mobile_money_number is missing or does not start with 0', async () => {
    const { mobile_money_number: _omit, ...withoutNumber } = valid;
    const missing = await stack.api<{ errors: { field: string }[] } & Record<string, unknown>>(
      'POST',
      '/v1/transactions',
      { key: keys.test.secret, body: withoutNumber },
    );
    expectError(missing, 400, 'validation_error');
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'mobile_money_number' })]);
    const wrong = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: { ...valid, mobile_money_number: '771234567' },
    });
    expectError(wrong, 400, 'validation_error');
  });

  it('400 for redirect URLs that are not http(s)', async () => {
    for (const url of ['javascript:alert(1)', 'ftp://shop.example.com/ok', 'not a url']) {
      const res = await stack.api<{ errors: { field: string }[] } & Record<string, unknown>>(
        'POST',
        '/v1/transactions',
        { key: keys.test.secret, body: { ...valid, success_url: url } },
      );
      expectError(res, 400, 'validation_error');
      expect(res.body.errors.map((e) => e.field)).toEqual(['success_url']);
    }
  });

  it('400 when the method code does not match the type', async () => {
    const res = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: { ...valid, payment_method_type: 'card' },
    });
    expectError(res, 400, 'validation_error');
  });

  it('409 for a reused transaction_reference, in the same mode only', async () => {
    const first = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: { ...valid, transaction_reference: 'dup-1' },
    });
    expect(first.status).toBe(200);
    const before = await transactionCount();
    expectError(
      await stack.api('POST', '/v1/transactions', {
        key: keys.test.secret,
        body: { ...valid, transaction_reference: 'dup-1' },
      }),
      409,
      'duplicate_reference',
    );
    expect(await transactionCount()).toBe(before);
  });

  it('422 payment_method_unavailable in live mode, storing nothing; requested_response is test-only', async () => {
    const before = await transactionCount();
    expectError(
      await stack.api('POST', '/v1/transactions', { key: keys.live.secret, body: valid }),
      422,
      'payment_method_unavailable',
    );
    expectError(
      await stack.api('POST', '/v1/transactions', {
        key: keys.live.secret,
        body: { ...valid, requested_response: 'success' },
      }),
      400,
      'validation_error',
    );
    expect(await transactionCount()).toBe(before);
  });

  it('401 on the admin API without the admin token; 400 for a bad body', async () => {
    expectError(
      await stack.api('POST', '/admin/v1/businesses', { key: keys.test.secret, body: { name: 'x' } }),
      401,
      'invalid_api_key',
    );
    const bad = await stack.api('POST', '/admin/v1/businesses', {
      headers: { authorization: `Bearer ${stack.adminToken}` },
      body: { name: '' },
    });
    expectError(bad, 400, 'validation_error');
  });

  it('503 quickly, with nothing written, when the transaction service is down', async () => {
    await stack.app('transaction-service').stop();
    try {
      const started = Date.now();
      const res = await stack.api('GET', '/v1/transactions/verify?reference=dup-1', { key: keys.test.secret });
      expectError(res, 503, 'service_unavailable');
      expect(Date.now() - started).toBeLessThan(10_000);
      expectError(
        await stack.api('POST', '/v1/transactions', {
          key: keys.test.secret,
          body: { ...valid, transaction_reference: 'while-down' },
        }),
        503,
        'service_unavailable',
      );
    } finally {
      await stack.startApp('transaction-service');
    }
    const res = await stack.api('GET', '/v1/transactions/verify?reference=while-down', { key: keys.test.secret });
    expectError(res, 404, 'not_found');
    // And the gateway reconnects by itself once the service is back.
    expect((await stack.api('GET', '/v1/transactions/verify?reference=dup-1', { key: keys.test.secret })).status).toBe(
      200,
    );
  }, 90_000);
});
