import { createHash } from 'node:crypto';
import type { ExecutionContext } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { lastValueFrom, of } from 'rxjs';
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

describe('IdempotencyInterceptor: records stored before fingerprints were canonical', () => {
  const url = '/transaction/initialize';
  const body = { email: 'a@example.com', amount: 5000, metadata: { order: '7', cart: 'x' } };
  // How the gateway fingerprinted a request before canonicalJson: the body's keys in the order sent.
  const oldFingerprint = createHash('sha256').update(`POST ${url}\n${JSON.stringify(body)}`).digest('hex');
  const storedBody = { status: true, message: 'Authorization URL created', data: { reference: 'ref_1' } };

  function setUp(fingerprint: string) {
    const redisKey = 'idempotency:biz_1:test:key-1';
    const store = new Map([[redisKey, JSON.stringify({ state: 'done', fingerprint, status: 201, body: storedBody })]]);
    const redis = {
      set: async (k: string, v: string, ...opts: unknown[]) => (opts.includes('NX') && store.has(k) ? null : (store.set(k, v), 'OK')),
      get: async (k: string) => store.get(k) ?? null,
      del: async (k: string) => Number(store.delete(k)),
    };
    const config = { REDIS_KEY_PREFIX: '', IDEMPOTENCY_TTL_SECONDS: 86_400, RPC_TIMEOUT_MS: 10_000 };
    const interceptor = new IdempotencyInterceptor(redis as unknown as Redis, config as GatewayConfig);
    const headers: Record<string, string> = {};
    const reply = { statusCode: 200, header: (k: string, v: string) => (headers[k] = v), status: (s: number) => (reply.statusCode = s) };
    const call = async (sent: unknown) => {
      const req = { method: 'POST', url, originalUrl: url, body: sent, headers: { 'idempotency-key': 'key-1' }, requestId: 'req_1', principal: { business_id: 'biz_1', mode: 'test', key_type: 'secret' } };
      const context = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => reply }), getHandler: () => () => undefined } as unknown as ExecutionContext;
      const ran = jest.fn(() => of({ fresh: true }));
      const out = await lastValueFrom(interceptor.intercept(context, { handle: ran }));
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
