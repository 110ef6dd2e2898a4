import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { createRootLogger } from '@payments/platform';
import type { GatewayConfig } from '../config/gateway.config';
import { RateLimiter } from './rate-limiter';

type Tokens = [number, string];

/**
 * A Redis whose token-bucket script answers when the test says so: `calls` holds the keys of
 * every call in order, `answer(i)` answers call i from `buckets` (key → [allowed, tokens left]),
 * `fail(i)` rejects it as a lost connection would.
 */
function fakeRedis(buckets: Record<string, Tokens>) {
  const calls: string[][] = [];
  const pending: { resolve: (v: (number | string)[]) => void; reject: (e: Error) => void }[] = [];
  const redis = {
    defineCommand(name: string) {
      (redis as Record<string, unknown>)[name] = (count: number, ...rest: (string | number)[]) => {
        const keys = rest.slice(0, count) as string[];
        calls.push(keys);
        expect(rest.slice(count)).toEqual([10, 20]);
        return new Promise((resolve, reject) => pending.push({ resolve, reject }));
      };
    },
  };
  const answer = (i: number) => pending[i].resolve(calls[i].flatMap((k) => buckets[k]));
  const fail = (i: number) => pending[i].reject(new Error('Connection is closed.'));
  return { redis: redis as unknown as Redis, calls, answer, fail };
}

const config = { REDIS_KEY_PREFIX: 'p:', RATE_LIMIT_PER_SECOND: 10, RATE_LIMIT_BURST: 20 } as GatewayConfig;
const buckets: Record<string, Tokens> = { 'p:ratelimit:a': [1, '12.5'], 'p:ratelimit:b': [0, '0.25'], 'p:ratelimit:c': [1, '19'] };

describe('RateLimiter: one Redis call for the requests that arrive while one is in flight', () => {
  it('sends a lone request at once', () => {
    const { redis, calls } = fakeRedis(buckets);
    void new RateLimiter(redis, config).take('a');
    expect(calls).toEqual([['p:ratelimit:a']]);
  });

  it('sends the requests that came during a call together when it is answered, and answers each with its own bucket', async () => {
    const { redis, calls, answer } = fakeRedis(buckets);
    const limiter = new RateLimiter(redis, config);
    const first = limiter.take('a');
    const rest = [limiter.take('b'), limiter.take('c'), limiter.take('a')];
    expect(calls).toHaveLength(1);
    answer(0);
    expect((await first).allowed).toBe(true);
    // A key named twice takes two tokens (the script takes them in order).
    expect(calls).toEqual([['p:ratelimit:a'], ['p:ratelimit:b', 'p:ratelimit:c', 'p:ratelimit:a']]);
    answer(1);
    const [b, c, a] = await Promise.all(rest);
    expect(a).toEqual({
      allowed: true,
      headers: { 'RateLimit-Limit': '20', 'RateLimit-Remaining': '12', 'RateLimit-Reset': '1', 'RateLimit-Policy': '20;w=2' },
    });
    expect(b).toEqual({
      allowed: false,
      headers: { 'RateLimit-Limit': '20', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '1', 'RateLimit-Policy': '20;w=2', 'Retry-After': '1' },
    });
    expect(c.headers['RateLimit-Remaining']).toBe('19');
    // Nothing in flight again: the next request goes at once.
    void limiter.take('c');
    expect(calls).toHaveLength(3);
  });

  it('when Redis cannot answer, every request of the call passes without headers, it is logged once, and the next call is tried', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    createRootLogger('gateway', 'info', sink);
    const { redis, calls, answer, fail } = fakeRedis(buckets);
    const limiter = new RateLimiter(redis, config);
    const first = limiter.take('a');
    const during = [limiter.take('b'), limiter.take('c')];
    answer(0);
    await first;
    fail(1);
    expect(await Promise.all(during)).toEqual([
      { allowed: true, headers: {} },
      { allowed: true, headers: {} },
    ]);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', err: 'Connection is closed.', requests: 2, message: expect.stringContaining('rate limiter unavailable') })]);
    const next = limiter.take('b');
    expect(calls).toHaveLength(3);
    answer(2);
    expect((await next).allowed).toBe(false);
  });
});
