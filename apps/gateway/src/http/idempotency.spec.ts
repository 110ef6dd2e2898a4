import { createHash } from 'node:crypto';
import { ErrorCodes } from '@payments/contracts';
import { logLines } from '../__tests__/log-lines';
import { ApiException } from './api-exception';
import type { ApiRequest } from './http-types';
import { canonicalJson, requestFingerprint } from './idempotency-fingerprint';
import { harness, keyedRequest, URL_PATH } from './__tests__/idempotency-harness';

describe('canonicalJson: the Idempotency-Key fingerprint compares parameters, not bytes', () => {
  it('the same parameters with keys in another order spell the same', () => {
    const a = { amount: 100, email: 'a@example.com', meta: { b: 1, a: [2, { y: 1, x: 2 }] } };
    const b = { meta: { a: [2, { x: 2, y: 1 }], b: 1 }, email: 'a@example.com', amount: 100 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });

  it('different values, array order or types spell differently', () => {
    expect(canonicalJson({ amount: 100 })).not.toBe(canonicalJson({ amount: 101 }));
    expect(canonicalJson({ amount: 100 })).not.toBe(canonicalJson({ amount: '100' }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson(null)).toBe('null');
  });
});

describe('Idempotency: records stored before fingerprints were canonical', () => {
  const url = URL_PATH;
  const body = { email: 'a@example.com', amount: 5000, metadata: { order: '7', cart: 'x' } };
  // How the gateway fingerprinted a request before canonicalJson: the body's keys in the order sent.
  const oldFingerprint = createHash('sha256')
    .update(`POST ${url}\n${JSON.stringify(body)}`)
    .digest('hex');
  const storedBody = { status: true, message: 'Authorization URL created', data: { reference: 'ref_1' } };

  function setUp(fingerprint: string) {
    const store = new Map([
      ['idempotency:biz_1:test:key-1', JSON.stringify({ state: 'done', fingerprint, status: 201, body: storedBody })],
    ]);
    const { call: send } = harness(store);
    const call = async (sent: unknown) => {
      const ran = jest.fn(async () => ({ fresh: true }));
      const out = await send(sent, ran);
      return { out, ran };
    };
    return { call };
  }

  it('a retry of the same body replays the response kept under the old fingerprint', async () => {
    const { call } = setUp(oldFingerprint);
    const { out, ran } = await call({ ...body });
    expect(JSON.parse(out.payload)).toEqual(storedBody);
    expect(ran).not.toHaveBeenCalled();
    expect(out.headers['idempotent-replayed']).toBe('true');
    expect(out.status).toBe(201);
  });

  it('another body under an old record is still idempotency_key_reused', async () => {
    const { call } = setUp(oldFingerprint);
    const { out, ran } = await call({ ...body, amount: 5001 });
    expect({ status: out.status, code: JSON.parse(out.payload).code }).toEqual({
      status: 422,
      code: 'idempotency_key_reused',
    });
    expect(ran).not.toHaveBeenCalled();
  });

  it('a record stored the canonical way replays too', async () => {
    const { call } = setUp(requestFingerprint('POST', url, body));
    const { out } = await call({ ...body });
    expect(JSON.parse(out.payload)).toEqual(storedBody);
  });
});

describe('Idempotency: what is kept is what was sent', () => {
  const body = { email: 'a@example.com', amount: 5000 };

  it('a replay sends the bytes and status of the first answer, error answers included', async () => {
    for (const outcome of [
      async () => ({ b: 1, a: [1, 'x'] }),
      async () => Promise.reject(new ApiException(ErrorCodes.DuplicateReference, 'duplicate reference')),
    ]) {
      const { call } = harness();
      const first = await call(body, outcome);
      const again = await call(body, async () => ({ ran: 'again' }));
      expect(again).toEqual({
        status: first.status,
        payload: first.payload,
        headers: { ...first.headers, 'idempotent-replayed': 'true' },
      });
    }
  });

  it('a request without the header, or not a POST, claims nothing and keeps nothing', async () => {
    const { call, store, idempotency } = harness();
    const out = await call(body, async () => ({ ok: true }), {});
    expect(out.payload).toBe('{"ok":true}');
    expect(store.size).toBe(0);
    expect(idempotency.claim({ method: 'POST', headers: {}, principal: {} } as unknown as ApiRequest)).toBeUndefined();
    expect(
      idempotency.claim({ method: 'GET', headers: { 'idempotency-key': 'k' }, principal: {} } as unknown as ApiRequest),
    ).toBeUndefined();
    // Neither a merchant's nor an admin's request (the checkout page's form posts).
    expect(
      idempotency.claim({
        method: 'POST',
        url: '/checkout/pay',
        headers: { 'idempotency-key': 'k' },
      } as unknown as ApiRequest),
    ).toBeUndefined();
  });

  it("an admin request is claimed because the admin guard says so, whatever its path's case", async () => {
    const { store, idempotency } = harness();
    const req = {
      method: 'POST',
      url: '/Admin/v1/businesses',
      originalUrl: '/Admin/v1/businesses',
      headers: { 'idempotency-key': 'k' },
      body: {},
    } as unknown as ApiRequest;
    await idempotency.claim(req, { admin: true });
    expect(req.idempotencyClaim).toBeDefined();
    expect([...store.keys()]).toEqual(['idempotency:admin:k']);
  });

  it.each([
    ['a body that was not JSON', '{"state":"done","fingerprint":"f","status":200,"body":not json}'],
    ['a record of another shape', '{"status":200}'],
  ])(
    'an unreadable record (%s) counts as absent: the request runs and its answer is kept, logged, never a 500',
    async (_what, raw) => {
      const lines = logLines();
      const store = new Map([['idempotency:biz_1:test:key-1', raw]]);
      const { call } = harness(store);
      const ran = jest.fn(async () => ({ fresh: true }));
      const out = await call(body, ran);
      expect(out.status).toBe(200);
      expect(out.payload).toBe('{"fresh":true}');
      expect(ran).toHaveBeenCalledTimes(1);
      expect(JSON.parse(store.get('idempotency:biz_1:test:key-1') ?? '')).toMatchObject({
        state: 'done',
        status: 200,
        body: { fresh: true },
      });
      expect(lines).toEqual([
        expect.objectContaining({ level: 'error', message: expect.stringContaining('unreadable idempotency record') }),
      ]);
      // The retry replays the kept answer.
      const again = await call(body, ran);
      expect(again.payload).toBe('{"fresh":true}');
      expect(ran).toHaveBeenCalledTimes(1);
    },
  );
});

describe('Idempotency: an answer that says JSON but is not', () => {
  it('is kept as a readable record (its text as a string), so a retry replays it instead of running', async () => {
    const body = { email: 'a@example.com', amount: 5000 };
    const { call, store, idempotency } = harness();
    const req = keyedRequest(body);
    await idempotency.claim(req);
    await idempotency.settle(req, req.idempotencyClaim!, 200, 'application/json; charset=utf-8', 'not json');
    expect(JSON.parse(store.get('idempotency:biz_1:test:key-1') ?? '')).toMatchObject({
      state: 'done',
      status: 200,
      body: 'not json',
    });
    const ran = jest.fn(async () => ({ fresh: true }));
    const again = await call(body, ran);
    expect(ran).not.toHaveBeenCalled();
    expect(again.status).toBe(200);
  });
});
