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
 * Takes one token per request. The takes of all requests that reach the limiter in one turn of
 * the event loop go to Redis as one script call at the end of that turn (setImmediate): one
 * command write and one round trip instead of one per request. A lone request waits for nothing
 * but the end of the turn it arrived in (no timer, no other request).
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
      if (this.waiting.length === 0) setImmediate(this.flush);
      this.waiting.push({ key: this.prefix + subject, resolve });
    });
  }

  private readonly flush = (): void => {
    const batch = this.waiting;
    this.waiting = [];
    const args: (string | number)[] = [batch.length];
    for (const w of batch) args.push(w.key);
    args.push(this.rate, this.burst);
    this.redis.takeTokens(...args).then(
      (result) => {
        for (let i = 0; i < batch.length; i++) batch[i].resolve(this.decision(result[2 * i] === 1, Number(result[2 * i + 1])));
      },
      (err: Error) => {
        rootLogger().warn({ err: err.message, requests: batch.length }, 'rate limiter unavailable; letting the requests through');
        for (const w of batch) w.resolve(UNLIMITED);
      },
    );
  };

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
