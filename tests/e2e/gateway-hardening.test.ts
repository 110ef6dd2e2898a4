import { freePort, startApp, type AppProcess } from '../support/processes';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { settled } from '../support/payments';

type Keys = Awaited<ReturnType<Stack['createBusiness']>>;

/** Idempotency keys, rate limits, key rolls across replicas, tenant isolation, security headers. */
describe('gateway hardening', () => {
  let stack: Stack;
  let a: Keys;
  let b: Keys;

  const pay = (
    key: string,
    reference: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) =>
    stack.api('POST', '/v1/transactions', {
      key,
      headers,
      body: {
        amount: 1000,
        email: 'x@example.com',
        currency: 'USD',
        payment_method_code: 'ecocash',
        mobile_money_number: '0771234567',
        transaction_reference: reference,
        ...extra,
      },
    });
  const count = async (reference: string) =>
    (
      await stack
        .db('transaction-service')
        .query('SELECT count(*)::int AS n FROM transactions WHERE reference = $1', [reference])
    ).rows[0].n as number;

  beforeAll(async () => {
    stack = await Stack.start(undefined, {
      RATE_LIMIT_PER_SECOND: '20',
      RATE_LIMIT_BURST: '30',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    [a, b] = [await stack.createBusiness('Alpha'), await stack.createBusiness('Beta')];
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  describe('Idempotency-Key', () => {
    it('replays the first response for the same key and body, and stores one transaction', async () => {
      const first = await pay(a.test.secret, 'idem-1', {}, { 'Idempotency-Key': 'key-1' });
      const again = await pay(a.test.secret, 'idem-1', {}, { 'Idempotency-Key': 'key-1' });
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(await count('idem-1')).toBe(1);
    });

    it('replays a retried admin request with a non-lower-case path (routing ignores case): one business', async () => {
      const send = (path: string) =>
        stack.api<{ business: { id: number } }>('POST', path, {
          headers: { authorization: `Bearer ${stack.adminToken}`, 'Idempotency-Key': 'admin-case-1' },
          body: { name: 'Case Corp' },
        });
      const first = await send('/Admin/v1/businesses');
      const again = await send('/Admin/v1/businesses');
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const named = await stack
        .db('gateway')
        .query("SELECT count(*)::int AS n FROM businesses WHERE name = 'Case Corp'");
      expect(named.rows[0].n).toBe(1);
    });

    it('treats the same parameters with their keys in another order as the same request', async () => {
      const body = {
        amount: 1000,
        email: 'x@example.com',
        currency: 'USD',
        payment_method_code: 'ecocash',
        mobile_money_number: '0771234567',
        transaction_reference: 'idem-order',
      };
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const first = await stack.api('POST', '/v1/transactions', {
        key: a.test.secret,
        headers: { 'Idempotency-Key': 'key-order' },
        body,
      });
      const again = await stack.api('POST', '/v1/transactions', {
        key: a.test.secret,
        headers: { 'Idempotency-Key': 'key-order' },
        body: reordered,
      });
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await count('idem-order')).toBe(1);
    });

    it('422 idempotency_key_reused for the same key with another body', async () => {
      await pay(a.test.secret, 'idem-2', {}, { 'Idempotency-Key': 'key-2' });
      const other = await pay(a.test.secret, 'idem-2', { amount: 2000 }, { 'Idempotency-Key': 'key-2' });
      expect(other.status).toBe(422);
      expect(other.body).toMatchObject({ result: 'error', code: 'idempotency_key_reused' });
      expect(await count('idem-2')).toBe(1);
    });

    it('lets concurrent requests with one key create exactly one transaction', async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, () => pay(a.test.secret, 'idem-race', {}, { 'Idempotency-Key': 'key-race' })),
      );
      for (const r of results) expect([200, 409]).toContain(r.status);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('idempotency_in_progress');
      expect(results.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(
        1,
      );
      expect(await count('idem-race')).toBe(1);
    });

    it('keeps keys per business, and does not keep a request refused by validation', async () => {
      expect((await pay(b.test.secret, 'idem-b', {}, { 'Idempotency-Key': 'key-1' })).status).toBe(200);
      const bad = await pay(a.test.secret, 'idem-3', { amount: -1 }, { 'Idempotency-Key': 'key-3' });
      expect(bad.status).toBe(400);
      const fixed = await pay(a.test.secret, 'idem-3', {}, { 'Idempotency-Key': 'key-3' });
      expect(fixed.status).toBe(200);
      expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    });

    it('checks in order: the API key, then the Idempotency-Key, then the body', async () => {
      const noKey = await pay('sk_test_not_a_key', 'idem-order-1', { amount: -1 }, { 'Idempotency-Key': 'bad key' });
      expect({ status: noKey.status, code: noKey.body.code }).toEqual({ status: 401, code: 'invalid_api_key' });
      const badHeader = await pay(a.test.secret, 'idem-order-1', { amount: -1 }, { 'Idempotency-Key': 'bad key' });
      expect(badHeader.status).toBe(400);
      expect(badHeader.body.errors).toEqual([{ field: 'Idempotency-Key', message: 'is malformed' }]);
      // A key already used is refused as reused before the new body is validated.
      await pay(a.test.secret, 'idem-order-2', {}, { 'Idempotency-Key': 'key-order-2' });
      const reused = await pay(a.test.secret, 'idem-order-2', { amount: -1 }, { 'Idempotency-Key': 'key-order-2' });
      expect({ status: reused.status, code: reused.body.code }).toEqual({
        status: 422,
        code: 'idempotency_key_reused',
      });
    });

    it('replays the first answer byte for byte, with only its own request id and rate-limit headers', async () => {
      const send = () =>
        stack.api('POST', '/v1/transactions', {
          key: a.test.secret,
          headers: { 'Idempotency-Key': 'key-bytes' },
          body: { amount: 'x' } as never,
        });
      // A refusal by validation is not kept: the same key then runs a valid request.
      expect((await send()).status).toBe(400);
      const body = {
        amount: 1000,
        email: 'x@example.com',
        currency: 'USD',
        payment_method_code: 'ecocash',
        mobile_money_number: '0771234567',
        transaction_reference: 'idem-bytes',
      };
      const once = () =>
        fetch(`${stack.gatewayUrl}/v1/transactions`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${a.test.secret}`,
            'content-type': 'application/json',
            'idempotency-key': 'key-bytes',
          },
          body: JSON.stringify(body),
        });
      const [first, again] = [await once(), await once()];
      const headers = (r: Response) =>
        [...r.headers].filter(
          ([k]) =>
            !['x-request-id', 'date', 'ratelimit-remaining', 'ratelimit-reset', 'idempotent-replayed'].includes(k),
        );
      expect(again.status).toBe(first.status);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(headers(again)).toEqual(headers(first));
      expect(await again.text()).toBe(await first.text());
    });

    it('replays a conflict the first request ran into', async () => {
      await pay(a.test.secret, 'idem-dup');
      const first = await pay(a.test.secret, 'idem-dup', {}, { 'Idempotency-Key': 'key-dup' });
      const again = await pay(a.test.secret, 'idem-dup', {}, { 'Idempotency-Key': 'key-dup' });
      expect(first.status).toBe(409);
      expect(again.status).toBe(409);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    });
  });

  describe('rate limits', () => {
    it('answers 429 with Retry-After and RateLimit headers past the burst, per key', async () => {
      const c = await stack.createBusiness('Chatty');
      // 120 at once: more than the bucket (30) plus what it refills (20/s) even on a slow machine.
      const answers = await Promise.all(
        Array.from({ length: 120 }, () =>
          stack.api('GET', '/v1/transactions/verify?reference=none', { key: c.test.secret }),
        ),
      );
      const limited = answers.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      expect(limited[0].body).toMatchObject({ result: 'error', code: 'rate_limited' });
      expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited[0].headers.get('ratelimit-limit')).toBe('30');
      expect(limited[0].headers.get('ratelimit-remaining')).toBe('0');
      expect(answers.filter((r) => r.status === 404).length).toBeGreaterThanOrEqual(25);
      // Another key is not affected.
      expect((await stack.api('GET', '/v1/transactions/verify?reference=none', { key: c.live.secret })).status).toBe(
        404,
      );
    });
  });

  describe('key rolls', () => {
    let replica: AppProcess;

    afterAll(async () => {
      await replica?.stop();
    });

    it('revokes a rolled key at once on every gateway replica, and honours a grace period', async () => {
      const port = await freePort();
      replica = startApp(
        'gateway',
        { ...stack.envFor('gateway'), GATEWAY_PORT: String(port), METRICS_PORT: String(await freePort()) },
        port,
      );
      await replica.waitReady();
      const c = await stack.createBusiness('Rolling');
      const viaReplica = (key: string) =>
        fetch(replica.url('/v1/transactions/verify?reference=none'), {
          headers: { authorization: `Bearer ${key}` },
        }).then((r) => r.status);
      expect(await viaReplica(c.test.secret)).toBe(404); // now cached on the replica

      const admin = { authorization: `Bearer ${stack.adminToken}` };
      const rolled = await stack.api('POST', `/admin/v1/businesses/${c.id}/keys/roll`, {
        headers: admin,
        body: { mode: 'test', type: 'secret', grace_seconds: 0 },
      });
      expect(rolled.status).toBe(201);
      const fresh = rolled.body.api_key as string;
      expect(fresh).toMatch(/^sk_test_/);
      expect((await stack.api('GET', '/v1/transactions/verify?reference=none', { key: c.test.secret })).status).toBe(
        401,
      );
      await waitFor('the replica to forget the rolled key', async () => (await viaReplica(c.test.secret)) === 401, {
        timeoutMs: 5_000,
      });
      expect(await viaReplica(fresh)).toBe(404);

      const graceful = await stack.api('POST', `/admin/v1/businesses/${c.id}/keys/roll`, {
        headers: admin,
        body: { mode: 'test', type: 'secret', grace_seconds: 3600 },
      });
      expect((await stack.api('GET', '/v1/transactions/verify?reference=none', { key: fresh })).status).toBe(404);
      expect(
        (await stack.api('GET', '/v1/transactions/verify?reference=none', { key: graceful.body.api_key as string }))
          .status,
      ).toBe(404);
    }, 60_000);
  });

  describe('tenant isolation', () => {
    it('lets business A read or change nothing of business B, and a test key nothing of live mode', async () => {
      const own = await pay(b.test.secret, 'b-private');
      await settled(stack, b.test.secret, 'b-private');
      const refund = await stack.api('POST', '/v1/transactions/refund', {
        key: b.test.secret,
        body: { transaction_reference: 'b-private', amount: 100 },
      });
      const created = await stack.api('POST', '/v1/callback', {
        key: b.test.secret,
        body: { url: 'https://127.0.0.1:9/b', events: ['transaction.success'] },
      });
      expect(created.status).toBe(200);
      const cbs = await stack.api<{ callbacks: { id: number }[] }>('GET', '/v1/callback/list', { key: b.test.secret });
      const cbId = cbs.body.callbacks[0].id;
      const link = await stack.api('POST', '/v1/links', {
        key: b.test.secret,
        body: { amount: 500, currency: 'USD', description: 'B only' },
      });
      const event = await waitFor(
        'B’s first event',
        async () =>
          (await stack.api<{ events: { id: string }[] }>('GET', '/v1/events?limit=1', { key: b.test.secret })).body
            .events[0],
      );

      const probes: [string, string, unknown?][] = [
        ['GET', '/v1/transactions/verify?reference=b-private'],
        ['GET', `/v1/transactions/fetch?publicId=${own.body.transaction_id}`],
        ['POST', '/v1/transactions/refund', { transaction_reference: 'b-private', amount: 1 }],
        ['GET', `/v1/transactions/refunds/${refund.body.refund_id}`],
        ['GET', '/v1/transactions/refunds?transaction_reference=b-private'],
        ['GET', `/v1/links/${link.body.payment_link_id}`],
        ['POST', `/v1/links/${link.body.payment_link_id}/deactivate`],
        ['GET', `/v1/callback/${cbId}`],
        ['GET', `/v1/callback/fetch/${cbId}`],
        ['PUT', `/v1/callback/${cbId}`, { is_active: false }],
        ['GET', `/v1/callback/${cbId}/secret`],
        ['POST', `/v1/callback/${cbId}/secret/roll`],
        ['GET', `/v1/callback/${cbId}/deliveries`],
        ['POST', `/v1/callback/${cbId}/test`],
        ['GET', `/v1/events/${event.id}`],
        ['DELETE', `/v1/callback/${cbId}`],
      ];
      for (const key of [a.test.secret, b.live.secret]) {
        for (const [method, path, body] of probes) {
          const res = await stack.api(method, path, { key, body });
          expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
        }
      }
      const list = await stack.api<{ transactions: unknown[] }>('GET', '/v1/transactions/list', { key: b.live.secret });
      expect(list.body.transactions).toEqual([]);
      // B's callback is untouched.
      const mine = await stack.api<{ callback: { is_active: boolean } }>('GET', `/v1/callback/${cbId}`, {
        key: b.test.secret,
      });
      expect(mine.status).toBe(200);
      expect(mine.body.callback.is_active).toBe(true);
      // And B's payment link is still active.
      expect(
        (await stack.api('GET', `/v1/links/${link.body.payment_link_id}`, { key: b.test.secret })).body.active,
      ).toBe(true);
    }, 60_000);
  });

  it('serves the OpenAPI document and Swagger UI at /docs', async () => {
    const json = await fetch(`${stack.gatewayUrl}/docs/openapi.json`);
    expect(json.status).toBe(200);
    const doc = (await json.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/transactions', '/v1/callback/list', '/v1/splits/ledger/summary']),
    );
    const ui = await fetch(`${stack.gatewayUrl}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
  });

  it('sends security headers and an X-Request-Id on every answer', async () => {
    const res = await stack.api('GET', '/v1/nothing', { key: a.test.secret });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });
});
