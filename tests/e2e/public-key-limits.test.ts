import { Stack, type ApiResponse } from '../support/stack';

type Keys = Awaited<ReturnType<Stack['createBusiness']>>;
type Body = Record<string, unknown> & { errors?: { field: string; message: string }[] };

/**
 * What a public key (pk_…, published in the merchant's web pages) may do: initialize payments,
 * but not choose their reference, not send the customer to an origin the merchant did not allow,
 * and not claim Idempotency-Keys of the merchant's secret-key calls. Secret keys are unaffected.
 */
describe('public-key limits', () => {
  let stack: Stack;
  let merchant: Keys;
  let other: Keys;

  const payment = {
    amount: 1000,
    email: 'buyer@example.com',
    currency: 'USD',
    payment_method_type: 'card',
    payment_method_code: 'zimswitch',
  };

  const transactions = async (businessId: number) =>
    (
      await stack
        .db('transaction-service')
        .query('SELECT reference, success_url, failure_url FROM transactions WHERE business_id = $1 ORDER BY id', [
          businessId,
        ])
    ).rows as {
      reference: string;
      success_url: string | null;
      failure_url: string | null;
    }[];

  function expectValidationError(res: ApiResponse<Body>, fields: string[]) {
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: 'error',
      code: 'validation_error',
      message: expect.any(String),
      request_id: expect.stringMatching(/^req_/),
    });
    expect(res.body.errors?.map((e) => e.field)).toEqual(fields);
  }

  beforeAll(async () => {
    stack = await Stack.start();
    merchant = await stack.createBusiness('Merchant Ltd');
    other = await stack.createBusiness('Other Ltd');
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('refuses a transaction_reference from a public key, and the server generates one instead', async () => {
    const before = await transactions(merchant.id);
    const refused = await stack.api<Body>('POST', '/v1/transactions', {
      key: merchant.test.public,
      body: { ...payment, transaction_reference: 'order-2001' },
    });
    expectValidationError(refused, ['transaction_reference']);
    expect(await transactions(merchant.id)).toEqual(before);

    const generated = await stack.api<Body>('POST', '/v1/transactions', { key: merchant.test.public, body: payment });
    expect(generated.status).toBe(200);
    expect(generated.body.transaction_reference).toEqual(expect.stringMatching(/^ref_/));

    // The merchant's own reference stays theirs: the secret key creates it and verify shows the merchant's payment.
    const own = await stack.api<Body>('POST', '/v1/transactions', {
      key: merchant.test.secret,
      body: { ...payment, amount: 4321, transaction_reference: 'order-2001' },
    });
    expect(own.status).toBe(200);
    const verify = await stack.api<Body>('GET', '/v1/transactions/verify?reference=order-2001', {
      key: merchant.test.secret,
    });
    expect(verify.body).toMatchObject({ result: 'success', transaction_reference: 'order-2001', amount: 4321 });
  });

  it('lets the merchant set redirect origins with the secret key, validating and normalising them', async () => {
    const path = '/v1/settings/redirect_origins';
    expect(await stack.api<Body>('GET', path, { key: merchant.test.secret })).toMatchObject({
      status: 200,
      body: { result: 'success', redirect_origins: [] },
    });

    for (const bad of [
      'http://shop.example',
      'https://shop.example/checkout',
      'https://user:pw@shop.example',
      'ftp://shop.example',
      'shop.example',
      'https://shop.example?x=1',
    ]) {
      const res = await stack.api<Body>('PUT', path, {
        key: merchant.test.secret,
        body: { redirect_origins: ['https://ok.example', bad] },
      });
      expectValidationError(res, ['redirect_origins']);
      expect(res.body.message).toContain('entry 1');
    }
    expectValidationError(
      await stack.api<Body>('PUT', path, {
        key: merchant.test.secret,
        body: { redirect_origins: 'https://shop.example' },
      }),
      ['redirect_origins'],
    );
    const tooMany = Array.from({ length: 21 }, (_, i) => `https://s${i}.example`);
    expectValidationError(
      await stack.api<Body>('PUT', path, { key: merchant.test.secret, body: { redirect_origins: tooMany } }),
      ['redirect_origins'],
    );

    const set = await stack.api<Body>('PUT', path, {
      key: merchant.test.secret,
      body: {
        redirect_origins: [
          'https://Shop.Example:443',
          'https://shop.example/',
          'http://localhost:3000',
          'https://pay.shop.example:8443',
        ],
      },
    });
    expect(set).toMatchObject({
      status: 200,
      body: {
        result: 'success',
        redirect_origins: ['https://shop.example', 'http://localhost:3000', 'https://pay.shop.example:8443'],
      },
    });
    expect((await stack.api<Body>('GET', path, { key: merchant.test.secret })).body.redirect_origins).toEqual([
      'https://shop.example',
      'http://localhost:3000',
      'https://pay.shop.example:8443',
    ]);
    // Another business's list is its own.
    expect((await stack.api<Body>('GET', path, { key: other.test.secret })).body.redirect_origins).toEqual([]);

    // The public key can neither read nor change the list.
    for (const method of ['GET', 'PUT']) {
      const res = await stack.api<Body>(method, path, {
        key: merchant.test.public,
        body: method === 'PUT' ? { redirect_origins: ['https://evil.example'] } : undefined,
      });
      expect(res).toMatchObject({ status: 403, body: { result: 'error', code: 'secret_key_required' } });
    }
  });

  it('lets an admin read and set any business’s redirect origins', async () => {
    const admin = { authorization: `Bearer ${stack.adminToken}` };
    const path = `/admin/v1/businesses/${other.id}/redirect_origins`;
    const set = await stack.api<Body>('PUT', path, {
      headers: admin,
      body: { redirect_origins: ['https://other.example'] },
    });
    expect(set).toMatchObject({
      status: 200,
      body: { result: 'success', redirect_origins: ['https://other.example'] },
    });
    expect((await stack.api<Body>('GET', path, { headers: admin })).body.redirect_origins).toEqual([
      'https://other.example',
    ]);
    expect(
      (await stack.api<Body>('GET', '/v1/settings/redirect_origins', { key: other.test.secret })).body.redirect_origins,
    ).toEqual(['https://other.example']);

    expect(
      await stack.api<Body>('GET', '/admin/v1/businesses/999999/redirect_origins', { headers: admin }),
    ).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(
      await stack.api<Body>('GET', '/admin/v1/businesses/4294967296/redirect_origins', { headers: admin }),
    ).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await stack.api<Body>('GET', path, { key: other.test.secret })).status).toBe(401);
    expectValidationError(
      await stack.api<Body>('PUT', path, { headers: admin, body: { redirect_origins: ['http://evil.example'] } }),
      ['redirect_origins'],
    );
  });

  it('accepts public-key redirect URLs only on an allowed origin; secret keys are not limited', async () => {
    await stack.api('PUT', '/v1/settings/redirect_origins', {
      key: merchant.test.secret,
      body: { redirect_origins: ['https://shop.example', 'http://localhost:3000'] },
    });
    const before = await transactions(merchant.id);
    for (const [field, url] of [
      ['failure_url', 'https://evil.example/phish'],
      ['success_url', 'https://shop.example.evil.example/ok'],
      ['success_url', 'http://shop.example/ok'],
      ['failure_url', 'https://shop.example:444/fail'],
      ['success_url', 'http://localhost:3001/ok'],
    ]) {
      const res = await stack.api<Body>('POST', '/v1/transactions', {
        key: merchant.test.public,
        body: { ...payment, [field]: url },
      });
      expectValidationError(res, [field]);
    }
    const both = await stack.api<Body>('POST', '/v1/transactions', {
      key: merchant.test.public,
      body: { ...payment, success_url: 'https://evil.example/a', failure_url: 'https://evil.example/b' },
    });
    expectValidationError(both, ['success_url', 'failure_url']);
    expect(await transactions(merchant.id)).toEqual(before);

    const allowed = await stack.api<Body>('POST', '/v1/transactions', {
      key: merchant.test.public,
      body: {
        ...payment,
        success_url: 'https://shop.example/thanks?order=7',
        failure_url: 'http://localhost:3000/sorry',
      },
    });
    expect(allowed.status).toBe(200);
    const stored = (await transactions(merchant.id)).find((t) => t.reference === allowed.body.transaction_reference);
    expect(stored).toMatchObject({
      success_url: 'https://shop.example/thanks?order=7',
      failure_url: 'http://localhost:3000/sorry',
    });

    // Another business's public key is held to that business's (empty) list.
    expectValidationError(
      await stack.api<Body>('POST', '/v1/transactions', {
        key: other.live.public,
        body: { ...payment, success_url: 'https://shop.example/ok' },
      }),
      ['success_url'],
    );

    const secret = await stack.api<Body>('POST', '/v1/transactions', {
      key: merchant.test.secret,
      body: { ...payment, failure_url: 'https://anywhere.example/fail' },
    });
    expect(secret.status).toBe(200);
  });

  it('keeps Idempotency-Keys per key type: a public key cannot pre-claim the merchant’s keys', async () => {
    const key = 'order-3001-attempt-1';
    const squat = await stack.api<Body>('POST', '/v1/transactions', {
      key: merchant.test.public,
      body: { ...payment, amount: 1 },
      headers: { 'idempotency-key': key },
    });
    expect(squat.status).toBe(200);

    const mine = { ...payment, amount: 5000, transaction_reference: 'order-3001' };
    const first = await stack.api<Body>('POST', '/v1/transactions', {
      key: merchant.test.secret,
      body: mine,
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.body.transaction_reference).toBe('order-3001');

    // Each key type still replays its own first answer.
    const again = await stack.api<Body>('POST', '/v1/transactions', {
      key: merchant.test.secret,
      body: mine,
      headers: { 'idempotency-key': key },
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.transaction_id).toBe(first.body.transaction_id);
    const publicAgain = await stack.api<Body>('POST', '/v1/transactions', {
      key: merchant.test.public,
      body: { ...payment, amount: 1 },
      headers: { 'idempotency-key': key },
    });
    expect(publicAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(publicAgain.body.transaction_id).toBe(squat.body.transaction_id);
  });
});
