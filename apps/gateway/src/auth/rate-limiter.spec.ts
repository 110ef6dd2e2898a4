import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { createRootLogger } from '@payments/platform';
import type { GatewayConfig } from '../config/gateway.config';
import { RateLimiter } from './rate-limiter';

/**
 * A Redis whose token-bucket script is answered from `answers` (key → [allowed, tokens left]),
 * recording the keys of every call; `fail` makes the next call reject as a lost connection would.
 */
function fakeRedis(answers: Record<string, [number, string]>) {
  const calls: string[][] = [];
  const state = { fail: false };
  const redis = {
    defineCommand(name: string) {
      (redis as Record<string, unknown>)[name] = (count: number, ...rest: (string | number)[]) => {
        const keys = rest.slice(0, count) as string[];
        calls.push(keys);
        expect(rest.slice(count)).toEqual([10, 20]);
        if (state.fail) return Promise.reject(new Error('Connection is closed.'));
        return Promise.resolve(keys.flatMap((k) => answers[k]));
      };
    },
  };
  return { redis: redis as unknown as Redis, calls, state };
}

const config = { REDIS_KEY_PREFIX: 'p:', RATE_LIMIT_PER_SECOND: 10, RATE_LIMIT_BURST: 20 } as GatewayConfig;

describe('RateLimiter: one Redis call per turn of the event loop', () => {
  const answers: Record<string, [number, string]> = {
    'p:ratelimit:a': [1, '12.5'],
    'p:ratelimit:b': [0, '0.25'],
    'p:ratelimit:c': [1, '19'],
  };

  it('takes the tokens of every request of one turn in one call, and answers each request with its own', async () => {
    const { redis, calls } = fakeRedis(answers);
    const limiter = new RateLimiter(redis, config);
    const [a, b, c] = await Promise.all([limiter.take('a'), limiter.take('b'), limiter.take('c')]);
    expect(calls).toEqual([['p:ratelimit:a', 'p:ratelimit:b', 'p:ratelimit:c']]);
    expect(a).toEqual({
      allowed: true,
      headers: { 'RateLimit-Limit': '20', 'RateLimit-Remaining': '12', 'RateLimit-Reset': '1', 'RateLimit-Policy': '20;w=2' },
    });
    expect(b).toEqual({
      allowed: false,
      headers: { 'RateLimit-Limit': '20', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '1', 'RateLimit-Policy': '20;w=2', 'Retry-After': '1' },
    });
    expect(c.headers['RateLimit-Remaining']).toBe('19');
    expect(c.headers['RateLimit-Reset']).toBe('1');
  });

  it('sends a key twice when two requests of one key arrive in one turn (each takes its own token)', async () => {
    const { redis, calls } = fakeRedis(answers);
    const limiter = new RateLimiter(redis, config);
    await Promise.all([limiter.take('a'), limiter.take('a')]);
    expect(calls).toEqual([['p:ratelimit:a', 'p:ratelimit:a']]);
  });

  it('a lone request is sent at the end of its own turn, and later turns make their own calls', async () => {
    const { redis, calls } = fakeRedis(answers);
    const limiter = new RateLimiter(redis, config);
    const first = limiter.take('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([['p:ratelimit:a']]);
    expect((await first).allowed).toBe(true);
    expect((await limiter.take('c')).allowed).toBe(true);
    expect(calls).toEqual([['p:ratelimit:a'], ['p:ratelimit:c']]);
  });

  it('when Redis cannot answer, every request of the batch passes without headers, and it is logged once', async () => {
    const lines: Record<string, unknown>[] = [];
    createRootLogger(
      'gateway',
      'info',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    );
    const { redis, state } = fakeRedis(answers);
      const limiter = new RateLimiter(redis, config);
      state.fail = true;
      const decisions = await Promise.all([limiter.take('a'), limiter.take('b')]);
      expect(decisions).toEqual([
        { allowed: true, headers: {} },
        { allowed: true, headers: {} },
      ]);
      expect(lines).toEqual([expect.objectContaining({ level: 'warn', err: 'Connection is closed.', requests: 2, message: expect.stringContaining('rate limiter unavailable') })]);
      // The next turn tries Redis again.
      state.fail = false;
      expect((await limiter.take('b')).allowed).toBe(false);
  });
});
