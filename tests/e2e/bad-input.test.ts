import { Stack } from '../support/stack';
import { expectError } from '../support/errors';

type Body = Record<string, unknown> & { errors?: { field: string; message: string }[] };
type Keys = Awaited<ReturnType<Stack['createBusiness']>>;

/**
 * No input makes the API answer 500: text the stores cannot hold, nesting, numbers beyond a
 * column's range, impossible dates, bad UTF-8 and huge query strings all get 400, 404 or 413
 * in the error model, and nothing is written.
 */
describe('bad input never gives a 500', () => {
  let stack: Stack;
  let keys: Keys;
  let admin: Record<string, string>;
  let callbackId: number;

  const link = { amount: 1000, currency: 'USD', description: 'Invoice 17' };

  /** A request with exact bytes (a string body would be sent re-encoded as UTF-8). */
  const raw = (method: string, path: string, body?: Uint8Array) =>
    stack.api<Body>(method, path, { key: keys.test.secret, rawBody: body });

  const count = async (app: 'transaction-service' | 'gateway', table: string) =>
    (await stack.db(app).query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;

  beforeAll(async () => {
    // The callback below points at a closed local port (deliveries fail; only its id is needed).
    stack = await Stack.start(undefined, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    keys = await stack.createBusiness('Input Ltd');
    admin = { authorization: `Bearer ${stack.adminToken}` };
    const created = await stack.api('POST', '/v1/callback', {
      key: keys.test.secret,
      body: { url: 'https://127.0.0.1:9/hook', events: ['transaction.success'] },
    });
    expect(created.status).toBe(200);
    const list = await stack.api<{ callbacks: { id: number }[] }>('GET', '/v1/callback/list', {
      key: keys.test.secret,
    });
    callbackId = list.body.callbacks[0].id;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('400 for null bytes and control characters in body fields and field names; nothing stored', async () => {
    const links = await count('transaction-service', 'payment_links');
    const businesses = await count('gateway', 'businesses');
    for (const description of ['a\u0000b', 'bell\u0007', 'esc\u001b[31m', 'del\u007f', 'c1\u0085']) {
      const res = await stack.api<Body>('POST', '/v1/links', { key: keys.test.secret, body: { ...link, description } });
      expectError(res, 400, 'validation_error');
      expect(res.body.errors).toEqual([
        { field: 'description', message: expect.stringContaining('control characters') },
      ]);
    }
    expectError(
      await stack.api('POST', '/v1/links', {
        key: keys.test.secret,
        body: { ...link, splits: [{ business_id: 1, type: 'fixed', value: 1, description: 'x\u0000' }] },
      }),
      400,
      'validation_error',
    );
    expectError(
      await stack.api('POST', '/admin/v1/businesses', { headers: admin, body: { name: 'Null\u0000Corp' } }),
      400,
      'validation_error',
    );
    expectError(
      await stack.api('POST', '/v1/callback', {
        key: keys.test.secret,
        body: { url: 'https://hooks.example/\u0000', events: ['transaction.success'] },
      }),
      400,
      'validation_error',
    );
    const badKey = await stack.api<Body>('POST', '/v1/links', {
      key: keys.test.secret,
      body: { ...link, 'x\u0000y': 1 },
    });
    expectError(badKey, 400, 'validation_error');
    expect(badKey.body.errors?.[0].field).toBe('x\\u0000y');
    expect(await count('transaction-service', 'payment_links')).toBe(links);
    expect(await count('gateway', 'businesses')).toBe(businesses);

    // Free text may still hold tabs and line breaks.
    expect(
      (
        await stack.api('POST', '/v1/links', {
          key: keys.test.secret,
          body: { ...link, description: 'Line 1\nLine 2\tend\r\n' },
        })
      ).status,
    ).toBe(200);
  });

  it('400 for unknown field names that look like patterns', async () => {
    for (const name of ['(', '[a-', '*x', 'a)b', '\\']) {
      const res = await stack.api<Body>('POST', '/v1/callback', {
        key: keys.test.secret,
        body: { url: 'https://hooks.example/x', events: [], [name]: 1 },
      });
      expectError(res, 400, 'validation_error');
      expect(res.body.errors).toContainEqual({ field: name, message: 'is not a recognised field' });
    }
  });

  it('400 for control characters in the query string and the path', async () => {
    for (const path of [
      '/v1/transactions/verify?reference=a%00b',
      '/v1/transactions/fetch?publicId=%07',
      '/v1/transactions/list?start_date=%0A',
      '/v1/callback/list?%00=1',
    ]) {
      expectError(await stack.api('GET', path, { key: keys.test.secret }), 400, 'validation_error');
    }
    expectError(await stack.api('GET', '/v1/callback/1%00', { key: keys.test.secret }), 400, 'validation_error');
    expectError(
      await stack.api('PUT', '/v1/splits/config/%00%19', { key: keys.test.secret, body: { split_value: 2 } }),
      400,
      'validation_error',
    );
  });

  it('400 for JSON nested deeper than 32 levels, before any field is looked at', async () => {
    const nest = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    const deep = await stack.api<Body>('POST', '/v1/transactions', { key: keys.test.secret, rawBody: nest(33) });
    expectError(deep, 400, 'validation_error');
    expect(deep.body.message).toContain('deeper than 32');
    const veryDeep = await stack.api<Body>('POST', '/v1/links', {
      key: keys.test.secret,
      rawBody: '['.repeat(20_000) + ']'.repeat(20_000),
    });
    expectError(veryDeep, 400, 'validation_error');
    // 32 levels is within the limit: refused for its fields, not its depth.
    const ok = await stack.api<Body>('POST', '/v1/transactions', { key: keys.test.secret, rawBody: nest(32) });
    expectError(ok, 400, 'validation_error');
    expect(ok.body.message).not.toContain('deeper');
    // Brackets inside strings do not count.
    const inString = await stack.api<Body>('POST', '/v1/links', {
      key: keys.test.secret,
      body: { ...link, description: '['.repeat(100) },
    });
    expect(inString.status).toBe(200);
  });

  it('400 or 404 for numbers beyond the range of their column', async () => {
    for (const path of [
      '/v1/callback/list?skip=2147483648',
      '/v1/callback/list?skip=99999999999999999999',
      `/v1/callback/${callbackId}/deliveries?skip=2147483648`,
      '/v1/splits/invoices?skip=2147483648',
      '/v1/splits/ledger?skip=1e300',
      '/v1/callback/list?limit=9007199254740993',
      '/v1/transactions/list?limit=-1',
    ]) {
      expectError(await stack.api('GET', path, { key: keys.test.secret }), 400, 'validation_error');
    }
    for (const path of ['/v1/callback/2147483648', '/v1/callback/99999999999999999999/deliveries', '/v1/callback/0']) {
      expectError(await stack.api('GET', path, { key: keys.test.secret }), 404, 'not_found');
    }
    expectError(
      await stack.api('POST', '/admin/v1/businesses/3000000000/keys/roll', {
        headers: admin,
        body: { mode: 'test', type: 'secret' },
      }),
      404,
      'not_found',
    );
    expectError(
      await stack.api('POST', '/admin/v1/businesses/-1/keys/roll', {
        headers: admin,
        body: { mode: 'test', type: 'secret' },
      }),
      404,
      'not_found',
    );
    const partner = { currency: 'USD', split_value: 1, split_role: 'principal', split_type: 'fixed' };
    expectError(
      await stack.api('POST', '/v1/splits/config', {
        key: keys.test.secret,
        body: { ...partner, partner_business_id: 3_000_000_000 },
      }),
      400,
      'validation_error',
    );
    expectError(
      await stack.api('POST', '/v1/links', {
        key: keys.test.secret,
        body: { ...link, splits: [{ business_id: 2 ** 31, type: 'fixed', value: 1 }] },
      }),
      400,
      'validation_error',
    );
  });

  it('400 for impossible dates and timestamps', async () => {
    for (const date of ['0000-01-01', '2025-02-30', '2024-13-01', '2025-00-10', '99999-01-01', '2025-1-1']) {
      const res = await stack.api<Body>('GET', `/v1/transactions/list?start_date=${date}`, { key: keys.test.secret });
      expectError(res, 400, 'validation_error');
      expect(res.body.errors?.[0].field).toBe('start_date');
    }
    expect(
      (
        await stack.api('GET', '/v1/transactions/list?start_date=2024-02-29&end_date=9999-12-31', {
          key: keys.test.secret,
        })
      ).status,
    ).toBe(200);
    for (const since of ['0000-01-01T00:00:00Z', '2025-02-30T00:00:00Z', '2025-01-01T25:00:00Z', '2025-01-01']) {
      const res = await stack.api<Body>('POST', `/v1/callback/${callbackId}/recover`, {
        key: keys.test.secret,
        body: { since },
      });
      expectError(res, 400, 'validation_error');
      expect(res.body.errors?.[0].field).toBe('since');
    }
    expect(
      (
        await stack.api('POST', `/v1/callback/${callbackId}/recover`, {
          key: keys.test.secret,
          body: { since: '2025-01-01T00:00:00Z' },
        })
      ).status,
    ).toBe(200);
  });

  it('400 for bad UTF-8 in the body, the query string and the path, and for unpaired surrogates', async () => {
    const transactions = await count('transaction-service', 'transactions');
    const prefix = Buffer.from(
      '{"amount":100,"email":"a@b.co","currency":"USD","payment_method_code":"zimswitch",' +
        '"payment_method_type":"card","success_url":"https://shop.example/',
    );
    for (const bad of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const body = Buffer.concat([prefix, Buffer.from(bad), Buffer.from('"}')]);
      const res = await raw('POST', '/v1/transactions', body);
      expectError(res, 400, 'validation_error');
      expect(res.body.message).toContain('UTF-8');
    }
    expect(await count('transaction-service', 'transactions')).toBe(transactions);
    expectError(await raw('GET', '/v1/transactions/verify?reference=%FF%FE'), 400, 'validation_error');
    expectError(await raw('GET', '/v1/transactions/verify?reference=%ED%A0%80'), 400, 'validation_error');
    expectError(await raw('GET', '/v1/transactions/verify?reference=%zz'), 400, 'validation_error');
    expectError(await raw('GET', '/v1/callback/%C3%28'), 400, 'validation_error');
    const surrogate = await stack.api<Body>('POST', '/v1/links', {
      key: keys.test.secret,
      rawBody: JSON.stringify({ ...link, description: 'x' }).replace('"x"', '"\\ud800x"'),
    });
    expectError(surrogate, 400, 'validation_error');
    expect(surrogate.body.errors?.[0].field).toBe('description');
  });

  it('413 for huge query strings, however large', async () => {
    const tooLong = await stack.api<Body>('GET', `/v1/transactions/verify?reference=${'a'.repeat(9 * 1024)}`, {
      key: keys.test.secret,
    });
    expectError(tooLong, 413, 'payload_too_large');
    // Beyond what Node's HTTP parser accepts at all: still the API's error body, not a bare 431.
    const huge = await stack.api<Body>('GET', `/v1/transactions/verify?reference=${'a'.repeat(200 * 1024)}`, {
      key: keys.test.secret,
    });
    expectError(huge, 413, 'payload_too_large');
    // The gateway still answers normally afterwards.
    expect((await stack.api('GET', '/v1/transactions/list', { key: keys.test.secret })).status).toBe(200);
  });

  it('logged no unhandled error in any service', () => {
    for (const [app, proc] of stack.processes) {
      const unhandled = proc.output.split('\n').filter((l) => /unhandled error|RPC handler failed/.test(l));
      expect({ app, unhandled }).toEqual({ app, unhandled: [] });
    }
  });
});
