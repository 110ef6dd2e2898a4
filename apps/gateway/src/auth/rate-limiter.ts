import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { rootLogger } from '@payments/platform';
import { REDIS } from '@payments/redis';
import { GatewayConfig } from '../config/gateway.config';

/**
 * Token bucket per API key, kept in Redis so every gateway replica shares it; the clock is
 * Redis's own (TIME), so replicas with skewed clocks agree. Takes one token from each key in
 * KEYS, in order (a key named twice gives two tokens, the second seeing the first's take), and
 * returns [allowed, tokens left] for each, flattened.
 */
const TOKEN_BUCKETS = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local ttl = math.ceil(burst / rate * 1000) + 1000
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local out = {}
for i, key in ipairs(KEYS) do
  local data = redis.call('HMGET', key, 'tokens', 'ts')
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
 * Takes one token per request. A request is sent to Redis at once when no call is in flight (a
 * lone request waits for nothing); the requests that arrive while one is in flight are sent
 * together, as one script call, as soon as its answer is back: one command write and one round
 * trip for all of them instead of one each (group commit).
 */
@Injectable()
export class RateLimiter {
  private readonly rate: number;
  private readonly burst: number;
  private readonly prefix: string;
  private readonly redis: TokenRedis;
  private readonly limitHeader: string;
  private readonly policyHeader: string;
  private waiting: Waiting[] = [];
  private inFlight = false;

  constructor(@Inject(REDIS) redis: Redis, @Inject(GatewayConfig) config: GatewayConfig) {
    this.redis = redis as TokenRedis;
    this.prefix = `${config.REDIS_KEY_PREFIX}ratelimit:`;
    this.rate = config.RATE_LIMIT_PER_SECOND;
    this.burst = config.RATE_LIMIT_BURST || config.RATE_LIMIT_PER_SECOND * 2;
    this.limitHeader = String(this.burst);
    this.policyHeader = `${this.burst};w=${Math.ceil(this.burst / this.rate)}`;
    // EVALSHA (the script is sent once per connection, not with every call); no fixed key count.
    if (!this.redis.takeTokens) this.redis.defineCommand('takeTokens', { lua: TOKEN_BUCKETS });
  }

  /** Takes one token for `subject`. If Redis cannot answer, the request passes (and it is logged). */
  take(subject: string): Promise<RateDecision> {
    return new Promise<RateDecision>((resolve) => {
      this.waiting.push({ key: this.prefix + subject, resolve });
      if (!this.inFlight) this.send();
    });
  }

  private send(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.inFlight = true;
    const args: (string | number)[] = [batch.length];
    for (let i = 0; i < batch.length; i++) args.push(batch[i].key);
    args.push(this.rate, this.burst);
    let call: Promise<(number | string)[]>;
    try {
      call = this.redis.takeTokens(...args);
    } catch (err) {
      call = Promise.reject(err as Error);
    }
    call.then(
      (result) => {
        for (let i = 0; i < batch.length; i++) batch[i].resolve(this.decision(result[2 * i] === 1, Number(result[2 * i + 1])));
        this.sent();
      },
      (err: Error) => {
        rootLogger().warn({ err: err.message, requests: batch.length }, 'rate limiter unavailable; letting the requests through');
        for (const w of batch) w.resolve(UNLIMITED);
        this.sent();
      },
    );
  }

  /** The call in flight is answered: the requests that came meanwhile go now, together. */
  private sent(): void {
    this.inFlight = false;
    if (this.waiting.length > 0) this.send();
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
