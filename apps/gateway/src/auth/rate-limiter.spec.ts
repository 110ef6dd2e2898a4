import type { Redis } from 'ioredis';
import { logLines } from '../__tests__/log-lines';
import type { GatewayConfig } from '../config/gateway.config';
import { MAX_CALLS_IN_FLIGHT, MAX_KEYS_PER_CALL, MAX_LEASES, RateLimiter } from './rate-limiter';

type Tokens = [number, string];

/**
 * A Redis whose token-bucket script answers when the test says so: `calls` holds the keys of
 * every call in order and `asks` the tokens each key asked for (empty without leases), `answer(i)`
 * answers call i from `buckets` (key → [granted, tokens left]), `fail(i)` rejects it as a lost
 * connection would.
 */
function fakeRedis(buckets: Record<string, Tokens>) {
  const calls: string[][] = [];
  const asks: (string | number)[][] = [];
  const pending: { resolve: (v: (number | string)[]) => void; reject: (e: Error) => void }[] = [];
  const redis = {
    defineCommand(name: string) {
      (redis as Record<string, unknown>)[name] = (count: number, ...rest: (string | number)[]) => {
        const keys = rest.slice(0, count) as string[];
        calls.push(keys);
        expect(rest.slice(count, count + 2)).toEqual([10, 20]);
        // Then the lease (ms) and each key's ask, when leasing.
        const [lease, ...wants] = rest.slice(count + 2);
        if (lease !== undefined) expect(lease).toBe(1_000);
        asks.push(wants);
        return new Promise((resolve, reject) => pending.push({ resolve, reject }));
      };
    },
  };
  const answer = (i: number) => pending[i].resolve(calls[i].flatMap((k) => buckets[k]));
  const fail = (i: number) => pending[i].reject(new Error('Connection is closed.'));
  const reply = (i: number, value: unknown) => pending[i].resolve(value as (number | string)[]);
  return { redis: redis as unknown as Redis, calls, asks, answer, fail, reply };
}

const config = {
  REDIS_KEY_PREFIX: 'p:',
  RATE_LIMIT_PER_SECOND: 10,
  RATE_LIMIT_BURST: 20,
  RATE_LIMIT_TIMEOUT_MS: 300,
  RATE_LIMIT_LEASE_MS: 0,
} as GatewayConfig;
const buckets: Record<string, Tokens> = {
  'p:ratelimit:a': [1, '12.5'],
  'p:ratelimit:b': [0, '0.25'],
  'p:ratelimit:c': [1, '19'],
};

describe('RateLimiter: one Redis call for the requests that arrive while every slot is in flight', () => {
  it('sends a lone request at once', () => {
    const { redis, calls } = fakeRedis(buckets);
    void new RateLimiter(redis, config).take('a');
    expect(calls).toEqual([['p:ratelimit:a']]);
  });

  it('sends two calls at once, groups requests arriving while both are in flight, each gets its bucket', async () => {
    const { redis, calls, answer } = fakeRedis(buckets);
    const limiter = new RateLimiter(redis, config);
    const first = limiter.take('a');
    const second = limiter.take('c');
    // The second request does not wait for the first's round trip.
    expect(calls).toEqual([['p:ratelimit:a'], ['p:ratelimit:c']]);
    const rest = [limiter.take('b'), limiter.take('c'), limiter.take('a')];
    expect(calls).toHaveLength(2);
    answer(0);
    expect((await first).allowed).toBe(true);
    // A key named twice takes two tokens (the script takes them in order).
    expect(calls[2]).toEqual(['p:ratelimit:b', 'p:ratelimit:c', 'p:ratelimit:a']);
    answer(1);
    answer(2);
    await second;
    const [b, c, a] = await Promise.all(rest);
    expect(a).toEqual({
      allowed: true,
      headers: {
        'RateLimit-Limit': '20',
        'RateLimit-Remaining': '12',
        'RateLimit-Reset': '1',
        'RateLimit-Policy': '20;w=2',
      },
    });
    expect(b).toEqual({
      allowed: false,
      headers: {
        'RateLimit-Limit': '20',
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': '1',
        'RateLimit-Policy': '20;w=2',
        'Retry-After': '1',
      },
    });
    expect(c.headers['RateLimit-Remaining']).toBe('19');
    // Nothing in flight again: the next request goes at once.
    void limiter.take('c');
    expect(calls).toHaveLength(4);
  });

  it("Redis not answering: the call's requests pass without headers, logged once; the next call is tried", async () => {
    const lines = logLines();
    const { redis, calls, answer, fail } = fakeRedis(buckets);
    const limiter = new RateLimiter(redis, config);
    const busy = [limiter.take('a'), limiter.take('a')];
    const during = [limiter.take('b'), limiter.take('c')];
    answer(0);
    answer(1);
    await Promise.all(busy);
    fail(2);
    expect(await Promise.all(during)).toEqual([
      { allowed: true, headers: {} },
      { allowed: true, headers: {} },
    ]);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        err: 'Connection is closed.',
        requests: 2,
        message: expect.stringContaining('rate limiter unavailable'),
      }),
    ]);
    const next = limiter.take('b');
    expect(calls).toHaveLength(4);
    answer(3);
    expect((await next).allowed).toBe(false);
  });

  it.each([null, 'OK', [1]])(
    'a reply that is not one per request (%p) lets the call through, is logged, and frees its slot',
    async (bad) => {
      const lines = logLines();
      const { redis, calls, answer, reply } = fakeRedis(buckets);
      const limiter = new RateLimiter(redis, config);
      const first = limiter.take('a');
      const second = limiter.take('b');
      reply(0, bad);
      expect(await first).toEqual({ allowed: true, headers: {} });
      expect(lines).toEqual([expect.objectContaining({ level: 'warn', err: 'unexpected reply', requests: 1 })]);
      answer(1);
      expect((await second).allowed).toBe(false);
      // Both slots are free again: later requests are sent, not left waiting.
      const later = limiter.take('c');
      expect(calls).toHaveLength(3);
      answer(2);
      expect((await later).allowed).toBe(true);
    },
  );

  it('a bucket the script could not read (-1) lets only its own request through', async () => {
    const lines = logLines();
    const { redis, reply } = fakeRedis(buckets);
    const limiter = new RateLimiter(redis, config);
    const [stray, limited] = [limiter.take('x'), limiter.take('b')];
    reply(0, [-1, '0']);
    reply(1, [0, '0.25']);
    expect(await stray).toEqual({ allowed: true, headers: {} });
    expect((await limited).allowed).toBe(false);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', requests: 1, message: expect.stringContaining('unreadable') }),
    ]);
  });

  describe('when Redis holds calls without answering (reconnecting)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('passes a call and its queue after RATE_LIMIT_TIMEOUT_MS; a late answer changes nothing', async () => {
      const lines = logLines();
      const { redis, calls, answer } = fakeRedis(buckets);
      const limiter = new RateLimiter(redis, config);
      const held = [limiter.take('a'), limiter.take('a')];
      const queued = Array.from({ length: MAX_KEYS_PER_CALL + 50 }, () => limiter.take('c'));
      expect(calls).toHaveLength(MAX_CALLS_IN_FLIGHT);
      jest.advanceTimersByTime(299);
      expect(calls).toHaveLength(2);
      jest.advanceTimersByTime(1);
      expect(await Promise.all(held)).toEqual([
        { allowed: true, headers: {} },
        { allowed: true, headers: {} },
      ]);
      // The queue does not wait another timeout per call: it passes with the call it waited behind.
      expect((await Promise.all(queued)).every((d) => d.allowed && Object.keys(d.headers).length === 0)).toBe(true);
      expect(lines).toEqual([
        expect.objectContaining({ err: 'no answer within 300 ms', requests: 1 + MAX_KEYS_PER_CALL + 50 }),
        expect.objectContaining({ err: 'no answer within 300 ms', requests: 1 }),
      ]);
      answer(0);
      answer(1);
      expect(calls).toHaveLength(2);
      // Once Redis answers again, requests are limited again.
      const next = limiter.take('b');
      expect(calls).toHaveLength(3);
      answer(2);
      expect((await next).allowed).toBe(false);
    });
  });

  it('sends nothing while the connection is not ready (ioredis would queue): passes, logs once a second', async () => {
    const lines = logLines();
    const { redis, calls } = fakeRedis(buckets);
    (redis as unknown as { status: string }).status = 'reconnecting';
    const limiter = new RateLimiter(redis, config);
    expect(await Promise.all([limiter.take('b'), limiter.take('b')])).toEqual([
      { allowed: true, headers: {} },
      { allowed: true, headers: {} },
    ]);
    expect(calls).toEqual([]);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', err: 'connection reconnecting' })]);
    (redis as unknown as { status: string }).status = 'ready';
    void limiter.take('b');
    expect(calls).toEqual([['p:ratelimit:b']]);
  });
});

describe('RateLimiter leases (RATE_LIMIT_LEASE_MS): a busy key spends tokens taken ahead, without Redis', () => {
  // 10 a second for 1 s: a lease is at most 10 tokens.
  const leasing = { ...config, RATE_LIMIT_LEASE_MS: 1_000 } as GatewayConfig;
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Takes one token for `key` and, if that makes a call, answers it with `reply`. */
  async function take(fake: ReturnType<typeof fakeRedis>, limiter: RateLimiter, key: string, reply?: Tokens) {
    const before = fake.calls.length;
    const decision = limiter.take(key);
    expect(fake.calls.length - before).toBe(reply ? 1 : 0);
    if (reply) fake.reply(before, reply);
    return decision;
  }

  it('asks twice as much while its lease is fresh, at most a lease of the rate, spending the rest here', async () => {
    const fake = fakeRedis(buckets);
    const limiter = new RateLimiter(fake.redis, leasing);
    expect((await take(fake, limiter, 'a', [1, '19'])).headers['RateLimit-Remaining']).toBe('19');
    // Granted 2: one for this request, one kept; Remaining counts the kept one.
    expect((await take(fake, limiter, 'a', [2, '16'])).headers['RateLimit-Remaining']).toBe('17');
    const local = await take(fake, limiter, 'a');
    expect(local).toEqual({ allowed: true, headers: expect.objectContaining({ 'RateLimit-Remaining': '16' }) });
    await take(fake, limiter, 'a', [4, '12']);
    for (let i = 0; i < 3; i++) expect((await take(fake, limiter, 'a')).allowed).toBe(true);
    await take(fake, limiter, 'a', [8, '4']);
    for (let i = 0; i < 7; i++) await take(fake, limiter, 'a');
    await take(fake, limiter, 'a', [1, '3']);
    expect(fake.asks).toEqual([[1], [2], [4], [8], [10]]);
  });

  it('a lease lapses after RATE_LIMIT_LEASE_MS: spare tokens go unused; the next ask is what it served', async () => {
    const fake = fakeRedis(buckets);
    const limiter = new RateLimiter(fake.redis, leasing);
    await take(fake, limiter, 'a', [1, '19']);
    await take(fake, limiter, 'a', [2, '17']);
    await take(fake, limiter, 'a');
    await take(fake, limiter, 'a', [4, '13']);
    await take(fake, limiter, 'a');
    jest.advanceTimersByTime(999);
    await take(fake, limiter, 'a');
    jest.advanceTimersByTime(1);
    // One token of the four is left, but the lease has lapsed: the request asks Redis, for the 3 it served.
    await take(fake, limiter, 'a', [3, '15']);
    expect(fake.asks).toEqual([[1], [2], [4], [3]]);
  });

  it('a key near its limit (granted only 1) asks Redis for every request; a refusal leases nothing', async () => {
    const fake = fakeRedis(buckets);
    const limiter = new RateLimiter(fake.redis, leasing);
    await take(fake, limiter, 'b', [1, '2']);
    await take(fake, limiter, 'b', [1, '1']);
    await take(fake, limiter, 'b', [1, '0.5']);
    const refused = await take(fake, limiter, 'b', [0, '0.5']);
    expect(refused.allowed).toBe(false);
    expect(refused.headers['Retry-After']).toBe('1');
    expect((await take(fake, limiter, 'b', [0, '0.6'])).allowed).toBe(false);
    expect(fake.asks).toEqual([[1], [2], [4], [8], [8]]);
  });

  it('in one call only the first request of a key asks for more; the others ask for one token each', async () => {
    const fake = fakeRedis(buckets);
    const limiter = new RateLimiter(fake.redis, leasing);
    await take(fake, limiter, 'a', [1, '19']);
    const busy = [limiter.take('c'), limiter.take('c')];
    const grouped = [limiter.take('a'), limiter.take('c'), limiter.take('a')];
    expect(fake.asks).toEqual([[1], [1], [1]]);
    fake.reply(1, [1, '19']);
    await busy[0];
    expect(fake.calls[3]).toEqual(['p:ratelimit:a', 'p:ratelimit:c', 'p:ratelimit:a']);
    // 'c' asks for 2 too: its lease (from the call just answered) is fresh.
    expect(fake.asks[3]).toEqual([2, 2, 1]);
    fake.reply(2, [1, '18']);
    fake.reply(3, [2, '16', 1, '17', 1, '15']);
    await busy[1];
    expect((await Promise.all(grouped)).map((d) => d.headers['RateLimit-Remaining'])).toEqual(['17', '17', '15']);
    // The first 'a' of the call was granted 2: the next 'a' spends the kept token without a call.
    await take(fake, limiter, 'a');
  });

  it('a lease runs from when its call was sent, not from its answer (Redis holds tokens from the grant)', async () => {
    const fake = fakeRedis(buckets);
    const limiter = new RateLimiter(fake.redis, leasing);
    await take(fake, limiter, 'a', [1, '19']);
    const slow = limiter.take('a');
    jest.advanceTimersByTime(200);
    fake.reply(1, [3, '16']);
    await slow;
    jest.advanceTimersByTime(799);
    await take(fake, limiter, 'a');
    jest.advanceTimersByTime(1);
    // 1000 ms after the call was sent, 800 after its answer: the last kept token has lapsed.
    await take(fake, limiter, 'a', [1, '16']);
  });

  it('kept tokens do not outlive their grant when a later call of the key is granted only one', async () => {
    const fake = fakeRedis(buckets);
    const limiter = new RateLimiter(fake.redis, leasing);
    await take(fake, limiter, 'a', [1, '19']);
    // Two calls of 'a' in flight at once, sent 200 ms apart (the second request found no lease token either).
    const first = limiter.take('a');
    jest.advanceTimersByTime(200);
    const second = limiter.take('a');
    expect(fake.calls).toHaveLength(3);
    fake.reply(1, [3, '16']);
    await first;
    fake.reply(2, [1, '15']);
    await second;
    jest.advanceTimersByTime(799);
    await take(fake, limiter, 'a');
    jest.advanceTimersByTime(1);
    // The first grant's tokens lapse 1000 ms after its call was sent, whatever the second call brought.
    await take(fake, limiter, 'a', [1, '15']);
  });

  it('requests queued while a call was in flight spend the lease its answer brought, with no call', async () => {
    const fake = fakeRedis(buckets);
    const limiter = new RateLimiter(fake.redis, leasing);
    await take(fake, limiter, 'a', [1, '19']);
    const granting = limiter.take('a');
    const other = limiter.take('c');
    const queued = [limiter.take('a'), limiter.take('a')];
    expect(fake.calls).toHaveLength(3);
    fake.reply(1, [3, '16']);
    await granting;
    expect((await Promise.all(queued)).map((d) => d.headers['RateLimit-Remaining'])).toEqual(['17', '16']);
    fake.reply(2, [1, '19']);
    await other;
    expect(fake.calls).toHaveLength(3);
  });

  it(`keeps at most ${MAX_LEASES} leases: lapsed ones make room; while all are fresh a new key has none`, async () => {
    const fake = fakeRedis(buckets);
    const limiter = new RateLimiter(fake.redis, leasing);
    const leases = (limiter as unknown as { leases: Map<string, unknown> }).leases;
    const many = Array.from({ length: MAX_LEASES }, (_, i) => limiter.take(`k${i}`));
    for (let answered = 0; answered < fake.calls.length; answered++) {
      fake.reply(
        answered,
        fake.calls[answered].flatMap(() => [1, '19']),
      );
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
    await Promise.all(many);
    expect(leases.size).toBe(MAX_LEASES);
    const before = fake.asks.length;
    await take(fake, limiter, 'new', [1, '19']);
    // No room: 'new' got no lease, so it asks for 1 again rather than twice its last ask.
    await take(fake, limiter, 'new', [1, '18']);
    expect(fake.asks.slice(before)).toEqual([[1], [1]]);
    jest.advanceTimersByTime(1_000);
    await take(fake, limiter, 'new', [1, '19']);
    expect(leases.size).toBe(1);
    await take(fake, limiter, 'new', [2, '17']);
    expect(fake.asks.slice(-1)).toEqual([[2]]);
  });

  it('RATE_LIMIT_LEASE_MS 0 asks for nothing more: one token per request, every request to Redis', async () => {
    const fake = fakeRedis(buckets);
    const limiter = new RateLimiter(fake.redis, config);
    await take(fake, limiter, 'a', [1, '19']);
    await take(fake, limiter, 'a', [1, '18']);
    expect(fake.asks).toEqual([[], []]);
  });
});
