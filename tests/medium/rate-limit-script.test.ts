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
    RATE_LIMIT_LEASE_MS: 0,
  } as GatewayConfig;

  beforeAll(async () => {
    redis = new IORedis(infra().REDIS_URL, { lazyConnect: true });
    await redis.connect();
  });

  afterAll(async () => {
    await redis.del(
      ...['busy', 'x', 'y', 'stray', 'z', 'leased', 'shared', 'refill'].map((k) => `${prefix}ratelimit:${k}`),
    );
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

  describe('with leases', () => {
    // 20 tokens refilled at 1 a second, leases of 10 s: at most 10 tokens (a lease's worth of the rate) an ask.
    const leasing = { ...config, RATE_LIMIT_BURST: 20, RATE_LIMIT_LEASE_MS: 10_000 } as GatewayConfig;
    const calls = (limiter: RateLimiter) => {
      const counted = { n: 0 };
      const r = (limiter as unknown as { redis: { takeTokens(...a: unknown[]): Promise<unknown> } }).redis;
      const takeTokens = r.takeTokens.bind(r);
      jest.spyOn(r, 'takeTokens').mockImplementation((...a: unknown[]) => {
        counted.n++;
        return takeTokens(...a);
      });
      return counted;
    };
    const bucket = async (key: string) => Number(await redis.hget(`${prefix}ratelimit:${key}`, 'tokens'));

    afterEach(() => jest.restoreAllMocks());

    it('one replica, requests one after another: exactly the burst passes, in fewer calls than requests', async () => {
      const limiter = new RateLimiter(redis, leasing);
      const counted = calls(limiter);
      const allowed: boolean[] = [];
      for (let i = 0; i < 22; i++) allowed.push((await limiter.take('leased')).allowed);
      expect(allowed).toEqual([...Array.from({ length: 20 }, () => true), false, false]);
      // Asks 1, 2, 4, 8 are granted 1, 2, 4 and 3 (the upper half runs out): 10 requests in 4 calls. Then one call
      // a request: the other 10, and the 2 refused.
      expect(counted.n).toBe(4 + 10 + 2);
      expect(await bucket('leased')).toBeLessThan(1);
    });

    it('two replicas share the bucket: tokens one holds are not granted to the other, and none is lost', async () => {
      const one = new RateLimiter(redis, leasing);
      const other = new RateLimiter(redis, leasing);
      for (let i = 0; i < 4; i++) expect((await one.take('shared')).allowed).toBe(true);
      // One holds 3 of the 4 tokens its last ask was granted; the bucket has 13.
      expect(Math.floor(await bucket('shared'))).toBe(13);
      let byOther = 0;
      while ((await other.take('shared')).allowed) byOther++;
      expect(byOther).toBe(13);
      let byOne = 0;
      while ((await one.take('shared')).allowed) byOne++;
      expect(4 + byOther + byOne).toBe(20);
    });

    it('the bucket does not refill what leases hold: bucket and leases together never exceed the burst', async () => {
      const one = new RateLimiter(redis, leasing);
      const other = new RateLimiter(redis, leasing);
      for (let i = 0; i < 4; i++) expect((await one.take('refill')).allowed).toBe(true);
      // One holds 3 tokens of its last grant; 13 are in the bucket. Seven seconds pass (the bucket's clock moved back).
      await redis.hincrbyfloat(`${prefix}ratelimit:refill`, 'ts', -7_000);
      let byOther = 0;
      while ((await other.take('refill')).allowed) byOther++;
      let byOne = 0;
      while ((await one.take('refill')).allowed) byOne++;
      // Refilled to 20 - 4 held (not 20): 16 for the other replica, the 3 held for the first; 19 at once, not 23.
      expect([byOther, byOne]).toEqual([16, 3]);
    });
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
