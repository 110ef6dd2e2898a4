import IORedis, { type Redis } from 'ioredis';
import { RateLimiter } from '../../apps/gateway/src/auth/rate-limiter';
import type { GatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { infra, runId } from '../support/infra';

/**
 * The rate limiter's token-bucket script on the real Redis: requests sent together in one call
 * take their tokens in order from the same buckets as requests sent one by one.
 */
describe('rate limiter on Redis: grouped calls keep the per-key bucket', () => {
  let redis: Redis;
  const prefix = `${runId()}:`;
  // 5 tokens, refilled at 1 per second: the test's few milliseconds refill nothing that counts.
  const config = {
    REDIS_KEY_PREFIX: prefix,
    RATE_LIMIT_PER_SECOND: 1,
    RATE_LIMIT_BURST: 5,
    RATE_LIMIT_TIMEOUT_MS: 5_000,
  } as GatewayConfig;

  beforeAll(async () => {
    redis = new IORedis(infra().REDIS_URL, { lazyConnect: true });
    await redis.connect();
  });

  afterAll(async () => {
    await redis.del(...['busy', 'x', 'y', 'stray', 'z'].map((k) => `${prefix}ratelimit:${k}`));
    redis.disconnect();
  });

  it('allows exactly the burst of one key, in order, when the requests go in one call', async () => {
    const limiter = new RateLimiter(redis, config);
    // The first two are sent at once (two calls in flight); the six others while both are, so together.
    const decisions = await Promise.all(Array.from({ length: 8 }, () => limiter.take('busy')));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(decisions.map((d) => d.headers['RateLimit-Remaining'])).toEqual(['4', '3', '2', '1', '0', '0', '0', '0']);
    expect(decisions[5].headers).toMatchObject({
      'RateLimit-Limit': '5',
      'RateLimit-Policy': '5;w=5',
      'Retry-After': '1',
    });
    expect(decisions[0].headers['Retry-After']).toBeUndefined();
    const ttl = await redis.pttl(`${prefix}ratelimit:busy`);
    expect(ttl).toBeGreaterThan(5_000);
    expect(ttl).toBeLessThanOrEqual(6_000);
  });

  it('keeps the keys of one call apart, and a second limiter (another replica) shares the buckets', async () => {
    const one = new RateLimiter(redis, config);
    const other = new RateLimiter(redis, config);
    const mixed = await Promise.all([one.take('x'), one.take('y'), one.take('x'), one.take('y'), one.take('x')]);
    expect(mixed.map((d) => d.headers['RateLimit-Remaining'])).toEqual(['4', '4', '3', '3', '2']);
    const fromOther = await Promise.all([other.take('x'), other.take('x'), other.take('x')]);
    expect(fromOther.map((d) => d.allowed)).toEqual([true, true, false]);
    expect((await other.take('y')).headers['RateLimit-Remaining']).toBe('2');
  });

  it("a stray key of another type lets only its own request through; the call's others are still limited", async () => {
    await redis.set(`${prefix}ratelimit:stray`, 'not a hash');
    const limiter = new RateLimiter(redis, config);
    const decisions = await Promise.all([
      limiter.take('z'),
      limiter.take('z'),
      limiter.take('stray'),
      ...Array.from({ length: 5 }, () => limiter.take('z')),
    ]);
    expect(decisions[2]).toEqual({ allowed: true, headers: {} });
    const z = decisions.filter((_, i) => i !== 2);
    expect(z.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(await redis.get(`${prefix}ratelimit:stray`)).toBe('not a hash');
  });
});
