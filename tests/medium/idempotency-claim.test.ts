import IORedis, { type Redis } from 'ioredis';
import type { GatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { keyedRequest } from '../../apps/gateway/src/http/__tests__/idempotency-harness';
import { Idempotency } from '../../apps/gateway/src/http/idempotency';
import { infra, runId } from '../support/infra';

/**
 * The Idempotency-Key claim and settle scripts on the real Redis: a request that outlived its
 * claim never writes over, or releases, the claim of the retry that took the key after it.
 */
describe('Idempotency-Key on Redis: a claim is settled only by the request that holds it', () => {
  let redis: Redis;
  const prefix = `${runId()}:`;
  const config = {
    REDIS_KEY_PREFIX: prefix,
    IDEMPOTENCY_TTL_SECONDS: 600,
    RPC_TIMEOUT_MS: 10_000,
    REDIS_TIMEOUT_MS: 1_000,
  } as GatewayConfig;
  const request = (key: string) => keyedRequest({ email: 'a@example.com', amount: 5000 }, key);
  const redisKey = (key: string) => `${prefix}idempotency:biz_1:test:${key}`;
  const record = async (key: string) =>
    JSON.parse((await redis.get(redisKey(key))) ?? 'null') as Record<string, unknown> | null;

  beforeAll(async () => {
    redis = new IORedis(infra().REDIS_URL, { lazyConnect: true });
    await redis.connect();
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}idempotency:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("keeps the holder's answer, with the hold the claim set and the TTL the answer gets", async () => {
    const idempotency = new Idempotency(redis, config);
    const req = request('held');
    await idempotency.claim(req);
    expect(await record('held')).toMatchObject({ state: 'running', claim: expect.any(String) });
    const hold = await redis.pttl(redisKey('held'));
    expect(hold).toBeGreaterThan(30_000);
    expect(hold).toBeLessThanOrEqual(40_000);
    await idempotency.settle(req, req.idempotencyClaim!, 200, 'application/json; charset=utf-8', '{"status":true}');
    expect(await record('held')).toEqual({
      state: 'done',
      fingerprint: req.idempotencyClaim!.fingerprint,
      status: 200,
      body: { status: true },
    });
    expect(await redis.ttl(redisKey('held'))).toBeGreaterThan(590);
  });

  it('a request whose claim expired and was taken again neither keeps its answer nor releases the key', async () => {
    const idempotency = new Idempotency(redis, config);
    const slow = request('taken');
    await idempotency.claim(slow);
    await redis.del(redisKey('taken')); // the hold ran out
    const retry = request('taken');
    await idempotency.claim(retry);
    const retrysClaim = await redis.get(redisKey('taken'));
    await idempotency.settle(slow, slow.idempotencyClaim!, 200, 'application/json', '{"late":true}');
    expect(await redis.get(redisKey('taken'))).toBe(retrysClaim);
    await idempotency.settle(slow, slow.idempotencyClaim!, 400, 'application/json', '{"code":"validation_error"}');
    expect(await redis.get(redisKey('taken'))).toBe(retrysClaim);
    await idempotency.settle(retry, retry.idempotencyClaim!, 201, 'application/json', '{"retry":true}');
    expect(await record('taken')).toMatchObject({ state: 'done', status: 201, body: { retry: true } });
  });

  it('a refused request releases only its own claim, so the retry runs', async () => {
    const idempotency = new Idempotency(redis, config);
    const refused = request('refused');
    await idempotency.claim(refused);
    await idempotency.settle(refused, refused.idempotencyClaim!, 429, 'application/json', '{"code":"rate_limited"}');
    expect(await redis.exists(redisKey('refused'))).toBe(0);
    const retry = request('refused');
    await expect(idempotency.claim(retry)).resolves.toBeUndefined();
    expect(retry.idempotencyClaim).toBeDefined();
  });

  it('an answer that outlived an expired claim nobody took is kept, so a retry replays it', async () => {
    const idempotency = new Idempotency(redis, config);
    const slow = request('lapsed');
    await idempotency.claim(slow);
    await redis.del(redisKey('lapsed'));
    await idempotency.settle(slow, slow.idempotencyClaim!, 200, 'application/json', '{"late":true}');
    expect(await record('lapsed')).toMatchObject({ state: 'done', body: { late: true } });
    await expect(idempotency.claim(request('lapsed'))).rejects.toMatchObject({
      name: 'IdempotentReplay',
      status: 200,
      body: { late: true },
    });
  });
});
