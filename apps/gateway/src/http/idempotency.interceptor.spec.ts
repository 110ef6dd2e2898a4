import { createHash } from 'node:crypto';
import type { ExecutionContext } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { lastValueFrom, of, throwError, type Observable } from 'rxjs';
import { ErrorCodes } from '@payments/contracts';
import { OutcomeUnknownError } from '@payments/database';
import { ApiException } from './api-exception';
import type { GatewayConfig } from '../config/gateway.config';
import { IdempotencyInterceptor, canonicalJson, requestFingerprint } from './idempotency.interceptor';

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

/** The interceptor over an in-memory Redis (`store`), called as one business's request with Idempotency-Key key-1. */
function harness(store = new Map<string, string>()) {
  const redis = {
    set: async (k: string, v: string, ...opts: unknown[]) => (opts.includes('NX') && store.has(k) ? null : (store.set(k, v), 'OK')),
    get: async (k: string) => store.get(k) ?? null,
    del: async (k: string) => Number(store.delete(k)),
  };
  const config = { REDIS_KEY_PREFIX: '', IDEMPOTENCY_TTL_SECONDS: 86_400, RPC_TIMEOUT_MS: 10_000 };
  const interceptor = new IdempotencyInterceptor(redis as unknown as Redis, config as GatewayConfig);
  const headers: Record<string, string> = {};
  const reply = { statusCode: 200, header: (k: string, v: string) => (headers[k] = v), status: (s: number) => (reply.statusCode = s) };
  const call = async (sent: unknown, handle: () => Observable<unknown>) => {
    const req = { method: 'POST', url: URL_PATH, originalUrl: URL_PATH, body: sent, headers: { 'idempotency-key': 'key-1' }, requestId: 'req_1', principal: { business_id: 'biz_1', mode: 'test', key_type: 'secret' } };
    const context = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => reply }), getHandler: () => () => undefined } as unknown as ExecutionContext;
    return lastValueFrom(interceptor.intercept(context, { handle }));
  };
  return { call, headers, reply, store };
}

describe('IdempotencyInterceptor: records stored before fingerprints were canonical', () => {
  const url = URL_PATH;
  const body = { email: 'a@example.com', amount: 5000, metadata: { order: '7', cart: 'x' } };
  // How the gateway fingerprinted a request before canonicalJson: the body's keys in the order sent.
  const oldFingerprint = createHash('sha256').update(`POST ${url}\n${JSON.stringify(body)}`).digest('hex');
  const storedBody = { status: true, message: 'Authorization URL created', data: { reference: 'ref_1' } };

  function setUp(fingerprint: string) {
    const store = new Map([['idempotency:biz_1:test:key-1', JSON.stringify({ state: 'done', fingerprint, status: 201, body: storedBody })]]);
    const { call: send, headers, reply } = harness(store);
    const call = async (sent: unknown) => {
      const ran = jest.fn(() => of({ fresh: true }));
      const out = await send(sent, ran);
      return { out, ran };
    };
    return { call, headers, reply };
  }

  it('a retry of the same body replays the response kept under the old fingerprint', async () => {
    const { call, headers, reply } = setUp(oldFingerprint);
    const { out, ran } = await call({ ...body });
    expect(out).toEqual(storedBody);
    expect(ran).not.toHaveBeenCalled();
    expect(headers['Idempotent-Replayed']).toBe('true');
    expect(reply.statusCode).toBe(201);
  });

  it('another body under an old record is still idempotency_key_reused', async () => {
    const { call } = setUp(oldFingerprint);
    await expect(call({ ...body, amount: 5001 })).rejects.toMatchObject({ status: 422, code: 'idempotency_key_reused' });
  });

  it('a record stored the canonical way replays too', async () => {
    const { call } = setUp(requestFingerprint('POST', url, body));
    await expect(call({ ...body })).resolves.toMatchObject({ out: storedBody });
  });
});

describe('IdempotencyInterceptor: what a failure leaves under the key', () => {
  const body = { email: 'a@example.com', amount: 5000 };

  function setUp() {
    const { call: send, store } = harness();
    const call = (handle: () => Observable<unknown>) => send(body, handle);
    const kept = () => [...store.values()].map((v) => JSON.parse(v) as { state: string; status?: number; body?: { code?: string } });
    return { call, kept };
  }

  it('a service that could not reach its store (not_executed) releases the key, so a retry runs', async () => {
    const { call, kept } = setUp();
    const refused = new ApiException(ErrorCodes.ServiceUnavailable, 'a data store is unreachable; try again shortly');
    refused.notExecuted = true;
    await expect(call(() => throwError(() => refused))).rejects.toBe(refused);
    expect(kept()).toEqual([]);
    await expect(call(() => of({ fresh: true }))).resolves.toEqual({ fresh: true });
  });

  it("the gateway's own unreachable store releases the key too", async () => {
    const { call, kept } = setUp();
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await expect(call(() => throwError(() => down))).rejects.toBe(down);
    expect(kept()).toEqual([]);
  });

  it("a store connection lost mid-write is kept as the filter's 503 (outcome unknown), never as a 500", async () => {
    const { call, kept } = setUp();
    const lost = new OutcomeUnknownError('INSERT INTO transactions …', [], new Error('Connection terminated unexpectedly'));
    await expect(call(() => throwError(() => lost))).rejects.toBe(lost);
    expect(kept()).toEqual([expect.objectContaining({ state: 'done', status: 503, body: expect.objectContaining({ code: 'service_unavailable' }) })]);
  });

  it('a refusal the service may have acted on is kept', async () => {
    const { call, kept } = setUp();
    const timedOut = new ApiException(ErrorCodes.ServiceUnavailable, 'transaction-service did not answer in time; try again');
    await expect(call(() => throwError(() => timedOut))).rejects.toBe(timedOut);
    expect(kept()).toEqual([expect.objectContaining({ state: 'done', status: 503 })]);
  });
});
