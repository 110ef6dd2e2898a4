import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ErrorCodes } from '@payments/contracts';
import { REDIS, redisReady, withinDeadline } from '@payments/redis';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from '../http/api-exception';

export const LOGIN_LIMITS = { perAccount: 10, perAddress: 30, windowMs: 15 * 60 * 1000 } as const;

/**
 * What the per-address counter counts: an IPv4 address (IPv4-mapped IPv6 included) as it is, an
 * IPv6 address by its /64. One host is usually given a whole /64, so counting single IPv6
 * addresses would give it 2^64 fresh counters.
 */
export function addressBucket(address: string): string {
  const bare = address.split('%')[0];
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  // Anything else that is not an IPv6 address (an IPv4 one, or text a proxy sent) counts as it is.
  if (!isIPv6(bare)) return address;
  let text = bare.toLowerCase();
  // An embedded IPv4 tail (::1.2.3.4, 64:ff9b::1.2.3.4) is the last two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Takes one attempt from both counters unless either is at its limit; answers 0 (taken) or the
 * milliseconds until the fuller counter's window ends. A counter's window starts at its first
 * attempt. Checked and taken in one step, so parallel guesses cannot slip past the limit.
 */
const TAKE = `
local a = tonumber(redis.call('GET', KEYS[1]) or '0')
local b = tonumber(redis.call('GET', KEYS[2]) or '0')
if a >= tonumber(ARGV[1]) or b >= tonumber(ARGV[2]) then
  local wait = 1
  if a >= tonumber(ARGV[1]) then wait = math.max(wait, redis.call('PTTL', KEYS[1])) end
  if b >= tonumber(ARGV[2]) then wait = math.max(wait, redis.call('PTTL', KEYS[2])) end
  return wait
end
for _, k in ipairs(KEYS) do
  if redis.call('INCR', k) == 1 then redis.call('PEXPIRE', k, ARGV[3]) end
end
return 0`;

/** Gives back an attempt (a successful sign-in does not count). */
const GIVE_BACK = `
for _, k in ipairs(KEYS) do
  if tonumber(redis.call('GET', k) or '0') > 0 then redis.call('DECR', k) end
end
return 0`;

/**
 * Sign-in attempts: at most 10 failed ones per account (e-mail, known or not) and 30 per client
 * address within 15 minutes; past that every attempt answers 429 until the window ends, whatever
 * the password. Each attempt is counted before the password is checked and given back when it
 * was right. Unlike the API's per-key limiter this one fails closed: no Redis, no sign-in.
 */
@Injectable()
export class LoginLimiter {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {
    this.prefix = `${config.REDIS_KEY_PREFIX}dashboard:login:`;
  }

  keys(email: string, address: string): string[] {
    const account = createHash('sha256').update(email.toLowerCase()).digest('base64url');
    return [`${this.prefix}account:${account}`, `${this.prefix}address:${addressBucket(address)}`];
  }

  /** Takes an attempt, or throws 429 rate_limited with Retry-After. */
  async take(keys: string[]): Promise<void> {
    const wait = Number(
      await this.call(
        this.redis.eval(
          TAKE,
          2,
          keys[0],
          keys[1],
          LOGIN_LIMITS.perAccount,
          LOGIN_LIMITS.perAddress,
          LOGIN_LIMITS.windowMs,
        ),
      ),
    );
    if (wait > 0) {
      const seconds = String(Math.ceil(wait / 1000));
      throw new ApiException(
        ErrorCodes.RateLimited,
        `too many sign-in attempts; try again in ${seconds} s`,
        undefined,
        { 'Retry-After': seconds },
      );
    }
  }

  async giveBack(keys: string[]): Promise<void> {
    await this.call(this.redis.eval(GIVE_BACK, 2, keys[0], keys[1]));
  }

  private async call<T>(p: Promise<T>): Promise<T> {
    try {
      if (!redisReady(this.redis)) throw new Error(`redis ${this.redis.status}`);
      return await withinDeadline(p, this.config.REDIS_TIMEOUT_MS, 'sign-in limiter');
    } catch (err) {
      p.catch(() => undefined);
      const e = new ApiException(ErrorCodes.ServiceUnavailable, 'sign-in is unavailable right now; try again shortly');
      e.cause = err;
      throw e;
    }
  }
}
