import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { rootLogger } from '@payments/platform';
import { REDIS } from '@payments/redis';
import { GatewayConfig } from '../config/gateway.config';

/**
 * Token bucket per API key, kept in Redis so every gateway replica shares it; the clock is
 * Redis's own (TIME), so replicas with skewed clocks agree. Returns [allowed, tokens left].
 */
const TOKEN_BUCKET = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local data = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(data[1]) or burst
local ts = tonumber(data[2]) or now
tokens = math.min(burst, tokens + (now - ts) * rate / 1000)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return { allowed, tostring(tokens) }
`;

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

@Injectable()
export class RateLimiter {
  private readonly rate: number;
  private readonly burst: number;
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(GatewayConfig) config: GatewayConfig,
  ) {
    this.prefix = config.REDIS_KEY_PREFIX;
    this.rate = config.RATE_LIMIT_PER_SECOND;
    this.burst = config.RATE_LIMIT_BURST || config.RATE_LIMIT_PER_SECOND * 2;
    // EVALSHA (the script is sent once per connection, not with every request).
    if (!(this.redis as Redis & { takeToken?: unknown }).takeToken) this.redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TOKEN_BUCKET });
  }

  /** Takes one token for `subject`. If Redis cannot answer, the request passes (and it is logged). */
  async take(subject: string): Promise<RateDecision> {
    let result: [number, string];
    try {
      const redis = this.redis as Redis & { takeToken(key: string, rate: number, burst: number): Promise<[number, string]> };
      result = await redis.takeToken(`${this.prefix}ratelimit:${subject}`, this.rate, this.burst);
    } catch (err) {
      rootLogger().warn({ err: (err as Error).message }, 'rate limiter unavailable; letting the request through');
      return { allowed: true, headers: {} };
    }
    const tokens = Number(result[1]);
    const allowed = result[0] === 1;
    const resetSeconds = Math.max(0, Math.ceil((allowed ? this.burst - tokens : 1 - tokens) / this.rate));
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(this.burst),
      'RateLimit-Remaining': String(Math.max(0, Math.floor(tokens))),
      'RateLimit-Reset': String(resetSeconds),
      'RateLimit-Policy': `${this.burst};w=${Math.ceil(this.burst / this.rate)}`,
    };
    if (!allowed) headers['Retry-After'] = String(Math.max(1, resetSeconds));
    return { allowed, headers };
  }
}
