import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import type { ArgumentsHost } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ErrorCodes } from '@payments/contracts';
import { OutcomeUnknownError } from '@payments/database';
import { createRootLogger } from '@payments/platform';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { ApiException } from './api-exception';
import type { GatewayConfig } from '../config/gateway.config';
import type { ApiReply, ApiRequest } from './http-types';
import { Idempotency, canonicalJson, requestFingerprint, settleIdempotency } from './idempotency';

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

const URL_PATH = '/transaction/initialize';

interface Answer {
  status: number;
  headers: Record<string, string>;
  payload: string;
}

/**
 * The part of Fastify's reply the handler's answer, the exceptions filter and the onSend hook
 * use; `sent` resolves with what went out once the hook let it go.
 */
function fakeReply(req: ApiRequest) {
  const answer: Answer = { status: 200, headers: {}, payload: '' };
  let release: (a: Answer) => void = () => undefined;
  const sent = new Promise<Answer>((resolve) => (release = resolve));
  const reply = {
    get statusCode() {
      return answer.status;
    },
    header(k: string, v: string) {
      answer.headers[k.toLowerCase()] = v;
      return reply;
    },
    headers(h: Record<string, string>) {
      for (const [k, v] of Object.entries(h)) reply.header(k, v);
      return reply;
    },
    code(s: number) {
      answer.status = s;
      return reply;
    },
    type(t: string) {
      return reply.header('content-type', t);
    },
    getHeader: (k: string) => answer.headers[k.toLowerCase()],
    // Fastify serialises an object as JSON, then runs the onSend hooks before writing.
    send(body: unknown) {
      let payload = body;
      if (typeof body === 'object' && body !== null) {
        answer.headers['content-type'] ??= 'application/json; charset=utf-8';
        payload = JSON.stringify(body);
      }
      settleIdempotency(req, reply as unknown as ApiReply, payload, (_err, out) => release({ ...answer, payload: String(out) }));
      return reply;
    },
  };
  return { reply, sent };
}

/**
 * The claim, the handler and the exceptions filter over an in-memory Redis (`store`), as one
 * business's POST with Idempotency-Key key-1: the guard claims, the handler's answer is sent with
 * the route's status (200) or its error goes through the filter, and the onSend hook keeps it.
 */
function harness(store = new Map<string, string>()) {
  const redis = {
    set: async (k: string, v: string, ...opts: unknown[]) => (opts.includes('NX') && store.has(k) ? null : (store.set(k, v), 'OK')),
    get: async (k: string) => store.get(k) ?? null,
    del: async (k: string) => Number(store.delete(k)),
    // The take-over script: replaces the record only if it is still the one that was read.
    eval: async (_script: string, _keys: number, k: string, was: string, now: string) => (store.get(k) === was ? (store.set(k, now), 'OK') : null),
  };
  const config = { REDIS_KEY_PREFIX: '', IDEMPOTENCY_TTL_SECONDS: 86_400, RPC_TIMEOUT_MS: 10_000 };
  const idempotency = new Idempotency(redis as unknown as Redis, config as GatewayConfig);
  const call = async (sent: unknown, handle: () => Promise<unknown>, headers: Record<string, string> = { 'idempotency-key': 'key-1' }): Promise<Answer> => {
    const req = {
      method: 'POST',
      url: URL_PATH,
      originalUrl: URL_PATH,
      body: sent,
      headers,
      requestId: 'req_1',
      notExecuted: false,
      principal: { business_id: 'biz_1', mode: 'test', key_type: 'secret' },
    } as unknown as ApiRequest;
    const { reply, sent: answer } = fakeReply(req);
    try {
      await idempotency.claim(req);
      const body = await handle();
      reply.code(200).send(body);
    } catch (err) {
      const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => reply }) } as unknown as ArgumentsHost;
      new AllExceptionsFilter().catch(err, host);
    }
    return answer;
  };
  return { call, store, idempotency };
}

describe('Idempotency: records stored before fingerprints were canonical', () => {
  const url = URL_PATH;
  const body = { email: 'a@example.com', amount: 5000, metadata: { order: '7', cart: 'x' } };
  // How the gateway fingerprinted a request before canonicalJson: the body's keys in the order sent.
  const oldFingerprint = createHash('sha256').update(`POST ${url}\n${JSON.stringify(body)}`).digest('hex');
  const storedBody = { status: true, message: 'Authorization URL created', data: { reference: 'ref_1' } };

  function setUp(fingerprint: string) {
    const store = new Map([['idempotency:biz_1:test:key-1', JSON.stringify({ state: 'done', fingerprint, status: 201, body: storedBody })]]);
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
    expect({ status: out.status, code: JSON.parse(out.payload).code }).toEqual({ status: 422, code: 'idempotency_key_reused' });
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
    for (const outcome of [async () => ({ b: 1, a: [1, 'x'] }), async () => Promise.reject(new ApiException(ErrorCodes.DuplicateReference, 'duplicate reference'))]) {
      const { call } = harness();
      const first = await call(body, outcome);
      const again = await call(body, async () => ({ ran: 'again' }));
      expect(again).toEqual({ status: first.status, payload: first.payload, headers: { ...first.headers, 'idempotent-replayed': 'true' } });
    }
  });

  it('a request without the header, or not a POST, claims nothing and keeps nothing', async () => {
    const { call, store, idempotency } = harness();
    const out = await call(body, async () => ({ ok: true }), {});
    expect(out.payload).toBe('{"ok":true}');
    expect(store.size).toBe(0);
    expect(idempotency.claim({ method: 'POST', headers: {}, principal: {} } as unknown as ApiRequest)).toBeUndefined();
    expect(idempotency.claim({ method: 'GET', headers: { 'idempotency-key': 'k' }, principal: {} } as unknown as ApiRequest)).toBeUndefined();
    // Neither a merchant's nor an admin's request (the checkout page's form posts).
    expect(idempotency.claim({ method: 'POST', url: '/checkout/pay', headers: { 'idempotency-key': 'k' } } as unknown as ApiRequest)).toBeUndefined();
  });

  it("an admin request is claimed because the admin guard says so, whatever its path's case", async () => {
    const { store, idempotency } = harness();
    const req = { method: 'POST', url: '/Admin/v1/businesses', originalUrl: '/Admin/v1/businesses', headers: { 'idempotency-key': 'k' }, body: {} } as unknown as ApiRequest;
    await idempotency.claim(req, { admin: true });
    expect(req.idempotencyClaim).toBeDefined();
    expect([...store.keys()]).toEqual(['idempotency:admin:k']);
  });

  it.each([
    ['a body that was not JSON', '{"state":"done","fingerprint":"f","status":200,"body":not json}'],
    ['a record of another shape', '{"status":200}'],
  ])('an unreadable record (%s) counts as absent: the request runs and its answer is kept, logged, never a 500', async (_what, raw) => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    createRootLogger('gateway', 'info', sink);
    const store = new Map([['idempotency:biz_1:test:key-1', raw]]);
    const { call } = harness(store);
    const ran = jest.fn(async () => ({ fresh: true }));
    const out = await call(body, ran);
    expect(out.status).toBe(200);
    expect(out.payload).toBe('{"fresh":true}');
    expect(ran).toHaveBeenCalledTimes(1);
    expect(JSON.parse(store.get('idempotency:biz_1:test:key-1') ?? '')).toMatchObject({ state: 'done', status: 200, body: { fresh: true } });
    expect(lines).toEqual([expect.objectContaining({ level: 'error', message: expect.stringContaining('unreadable idempotency record') })]);
    // The retry replays the kept answer.
    const again = await call(body, ran);
    expect(again.payload).toBe('{"fresh":true}');
    expect(ran).toHaveBeenCalledTimes(1);
  });
});

describe('Idempotency: an answer that says JSON but is not', () => {
  it('is kept as a readable record (its text as a string), so a retry replays it instead of running again', async () => {
    const body = { email: 'a@example.com', amount: 5000 };
    const { call, store, idempotency } = harness();
    const req = {
      method: 'POST',
      url: URL_PATH,
      originalUrl: URL_PATH,
      body,
      headers: { 'idempotency-key': 'key-1' },
      requestId: 'req_1',
      notExecuted: false,
      principal: { business_id: 'biz_1', mode: 'test', key_type: 'secret' },
    } as unknown as ApiRequest;
    await idempotency.claim(req);
    await idempotency.settle(req, req.idempotencyClaim!, 200, 'application/json; charset=utf-8', 'not json');
    expect(JSON.parse(store.get('idempotency:biz_1:test:key-1') ?? '')).toMatchObject({ state: 'done', status: 200, body: 'not json' });
    const ran = jest.fn(async () => ({ fresh: true }));
    const again = await call(body, ran);
    expect(ran).not.toHaveBeenCalled();
    expect(again.status).toBe(200);
  });
});

describe('Idempotency: what a failure leaves under the key', () => {
  const body = { email: 'a@example.com', amount: 5000 };

  function setUp() {
    const { call: send, store } = harness();
    const call = (handle: () => Promise<unknown>) => send(body, handle);
    const kept = () => [...store.values()].map((v) => JSON.parse(v) as { state: string; status?: number; body?: { code?: string } });
    return { call, kept };
  }

  it('a service that could not reach its store (not_executed) releases the key, so a retry runs', async () => {
    const { call, kept } = setUp();
    const refused = new ApiException(ErrorCodes.ServiceUnavailable, 'a data store is unreachable; try again shortly');
    refused.notExecuted = true;
    expect((await call(() => Promise.reject(refused))).status).toBe(503);
    expect(kept()).toEqual([]);
    expect((await call(async () => ({ fresh: true }))).payload).toBe('{"fresh":true}');
  });

  it("the gateway's own unreachable store releases the key too", async () => {
    const { call, kept } = setUp();
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect((await call(() => Promise.reject(down))).status).toBe(503);
    expect(kept()).toEqual([]);
  });

  it('a request refused by validation releases the key', async () => {
    const { call, kept } = setUp();
    const invalid = new ApiException(ErrorCodes.ValidationError, 'request body failed validation', [{ field: 'amount', message: 'must be positive' }]);
    expect((await call(() => Promise.reject(invalid))).status).toBe(400);
    expect(kept()).toEqual([]);
  });

  it("a store connection lost mid-write is kept as the filter's 503 (outcome unknown), never as a 500", async () => {
    const { call, kept } = setUp();
    const lost = new OutcomeUnknownError('INSERT INTO transactions …', [], new Error('Connection terminated unexpectedly'));
    expect((await call(() => Promise.reject(lost))).status).toBe(503);
    expect(kept()).toEqual([expect.objectContaining({ state: 'done', status: 503, body: expect.objectContaining({ code: 'service_unavailable' }) })]);
  });

  it('a refusal the service may have acted on is kept', async () => {
    const { call, kept } = setUp();
    const timedOut = new ApiException(ErrorCodes.ServiceUnavailable, 'transaction-service did not answer in time; try again');
    expect((await call(() => Promise.reject(timedOut))).status).toBe(503);
    expect(kept()).toEqual([expect.objectContaining({ state: 'done', status: 503 })]);
  });
});
