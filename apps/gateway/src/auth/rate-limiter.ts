import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { rootLogger } from '@payments/platform';
import { REDIS_WITHOUT_REPLAY, redisReady } from '@payments/redis';
import { GatewayConfig } from '../config/gateway.config';

/**
 * Token bucket per API key in Redis, shared by every replica and timed by Redis's clock (TIME) so skewed replicas
 * agree. Returns [allowed, tokens left] per entry of KEYS, flattened; a key of another type answers allowed = -1
 * instead of failing the call, so one bad key lets only its own request through.
 */
const TOKEN_BUCKETS = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local ttl = math.ceil(burst / rate * 1000) + 1000
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local out = {}
for i, key in ipairs(KEYS) do
  local data = redis.pcall('HMGET', key, 'tokens', 'ts')
  if data.err then
    -- A key that is not a hash (a stray key): its request is not limited, the others still are.
    out[2 * i - 1] = -1
    out[2 * i] = '0'
  else
    local tokens = tonumber(data[1]) or burst
    local ts = tonumber(data[2]) or now
    tokens = math.min(burst, tokens + (now - ts) * rate / 1000)
    local allowed = 0
    if tokens >= 1 then
      tokens = tokens - 1
      allowed = 1
    end
    redis.call('HSET', key, 'tokens', tostring(tokens), 'ts', tostring(now))
    redis.call('PEXPIRE', key, ttl)
    out[2 * i - 1] = allowed
    out[2 * i] = tostring(tokens)
  end
end
return out
`;

export interface RateDecision {
  allowed: boolean;
  headers: Readonly<Record<string, string>>;
}

type TokenRedis = Redis & { takeTokens(...args: (string | number)[]): Promise<(number | string)[]> };

/** What a request gets when Redis cannot answer: it passes, without RateLimit headers. */
const UNLIMITED: RateDecision = Object.freeze({ allowed: true, headers: Object.freeze({}) });

interface Waiting {
  key: string;
  resolve(decision: RateDecision): void;
}

/**
 * At most this many keys per script call: a larger call would block Redis (single-threaded, also
 * serving BullMQ and idempotency keys) for as long as the script runs. More waiting → another call.
 */
export const MAX_KEYS_PER_CALL = 200;
/** Calls in flight at once (as GroupCommit): a request waits for a free slot, not for a whole round trip. */
export const MAX_CALLS_IN_FLIGHT = 2;

/**
 * One token per request; requests arriving while every call is in flight go together in the next (group commit). A
 * Redis call that times out (RATE_LIMIT_TIMEOUT_MS), fails or finds Redis down lets its requests through (logged) and
 * is never resent (REDIS_WITHOUT_REPLAY), so it cannot take tokens later.
 */
@Injectable()
export class RateLimiter {
  private readonly rate: number;
  private readonly burst: number;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly redis: TokenRedis;
  private readonly limitHeader: string;
  private readonly policyHeader: string;
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private lastWarnAt = 0;

  constructor(@Inject(REDIS_WITHOUT_REPLAY) redis: Redis, @Inject(GatewayConfig) config: GatewayConfig) {
    this.redis = redis as TokenRedis;
    this.prefix = `${config.REDIS_KEY_PREFIX}ratelimit:`;
    this.rate = config.RATE_LIMIT_PER_SECOND;
    this.burst = config.RATE_LIMIT_BURST || config.RATE_LIMIT_PER_SECOND * 2;
    this.timeoutMs = config.RATE_LIMIT_TIMEOUT_MS;
    this.limitHeader = String(this.burst);
    this.policyHeader = `${this.burst};w=${Math.ceil(this.burst / this.rate)}`;
    // EVALSHA (the script is sent once per connection, not with every call); no fixed key count.
    if (!this.redis.takeTokens) this.redis.defineCommand('takeTokens', { lua: TOKEN_BUCKETS });
  }

  /** Takes one token for `subject`. If Redis cannot answer, the request passes (and it is logged). */
  take(subject: string): Promise<RateDecision> {
    // A connection that is not ready (connecting, reconnecting) cannot take the call: send nothing.
    if (!redisReady(this.redis)) {
      this.warnUnavailable(`connection ${this.redis.status}`, 1);
      return Promise.resolve(UNLIMITED);
    }
    return new Promise<RateDecision>((resolve) => {
      this.waiting.push({ key: this.prefix + subject, resolve });
      if (this.inFlight < MAX_CALLS_IN_FLIGHT) this.send();
    });
  }

  private send(): void {
    const batch = this.waiting.length <= MAX_KEYS_PER_CALL ? this.waiting : this.waiting.slice(0, MAX_KEYS_PER_CALL);
    this.waiting = batch === this.waiting ? [] : this.waiting.slice(MAX_KEYS_PER_CALL);
    this.inFlight++;
    const args: (string | number)[] = [batch.length];
    for (let i = 0; i < batch.length; i++) args.push(batch[i].key);
    args.push(this.rate, this.burst);
    let settled = false;
    const settle = (result: unknown, err?: string, alsoPassed = 0): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        this.answer(batch, result, err, alsoPassed);
      } finally {
        this.sent();
      }
    };
    const timer = setTimeout(() => {
      // Redis is slow: the requests queued behind this call would wait as long again, so they pass too.
      const queued = this.waiting;
      this.waiting = [];
      for (const w of queued) w.resolve(UNLIMITED);
      settle(undefined, `no answer within ${this.timeoutMs} ms`, queued.length);
    }, this.timeoutMs);
    timer.unref();
    let call: Promise<unknown>;
    try {
      call = this.redis.takeTokens(...args);
    } catch (err) {
      call = Promise.reject(err as Error);
    }
    call.then(
      (result) => settle(result),
      (err: Error) => settle(undefined, err.message),
    );
  }

  /** Answers each request of a call from its reply; a failed call or a reply of another shape lets them all through. */
  private answer(batch: Waiting[], result: unknown, err: string | undefined, alsoPassed: number): void {
    const problem =
      err ?? (Array.isArray(result) && result.length === 2 * batch.length ? undefined : 'unexpected reply');
    if (problem !== undefined) {
      rootLogger().warn(
        { err: problem, requests: batch.length + alsoPassed },
        'rate limiter unavailable; letting the requests through',
      );
      for (const w of batch) w.resolve(UNLIMITED);
      return;
    }
    const reply = result as unknown[];
    let unreadable = 0;
    for (let i = 0; i < batch.length; i++) {
      const allowed = reply[2 * i];
      if (allowed === 0 || allowed === 1) {
        batch[i].resolve(this.decision(allowed === 1, Number(reply[2 * i + 1])));
      } else {
        unreadable++;
        batch[i].resolve(UNLIMITED);
      }
    }
    if (unreadable > 0)
      rootLogger().warn(
        { requests: unreadable },
        'rate-limit bucket unreadable (not a hash?); letting its requests through',
      );
  }

  /** At most one warning a second while the connection is down (one per request would flood the log). */
  private warnUnavailable(reason: string, requests: number): void {
    const now = Date.now();
    if (now - this.lastWarnAt < 1_000) return;
    this.lastWarnAt = now;
    rootLogger().warn({ err: reason, requests }, 'rate limiter unavailable; letting the requests through');
  }

  /** A call is answered (or given up on): the requests that came meanwhile go now, together. */
  private sent(): void {
    this.inFlight--;
    while (this.waiting.length > 0 && this.inFlight < MAX_CALLS_IN_FLIGHT) this.send();
  }
  private decision(allowed: boolean, tokens: number): RateDecision {
    const resetSeconds = Math.max(0, Math.ceil((allowed ? this.burst - tokens : 1 - tokens) / this.rate));
    const headers: Record<string, string> = {
      'RateLimit-Limit': this.limitHeader,
      'RateLimit-Remaining': String(Math.max(0, Math.floor(tokens))),
      'RateLimit-Reset': String(resetSeconds),
      'RateLimit-Policy': this.policyHeader,
    };
    if (!allowed) headers['Retry-After'] = String(Math.max(1, resetSeconds));
    return { allowed, headers };
  }
}
