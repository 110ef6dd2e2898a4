import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { rootLogger } from '@payments/platform';
import { REDIS_WITHOUT_REPLAY, redisReady } from '@payments/redis';
import { GatewayConfig } from '../config/gateway.config';

/**
 * Token bucket per API key in Redis, shared by every replica and timed by Redis's clock (TIME) so skewed replicas
 * agree. ARGV: rate, burst, the lease (ms; 0 or absent: none), then what each entry of KEYS asks for (1 when absent).
 * An entry is granted one token if the bucket has one, and up to the rest of what it asked for only from the bucket's
 * upper half. Tokens granted beyond the request are `held` until `held_until` (the lease after the latest such grant):
 * the bucket refills only up to burst − held, so the bucket and every replica's leases together never hold more than
 * the burst, and held stays within the upper half. Returns [tokens granted, tokens left] per entry, flattened; a key of
 * another type answers granted = -1 instead of failing the call, so one bad key lets only its own request through.
 */
const TOKEN_BUCKETS = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local lease = tonumber(ARGV[3]) or 0
local ttl = math.max(math.ceil(burst / rate * 1000), lease) + 1000
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local out = {}
for i, key in ipairs(KEYS) do
  local want = tonumber(ARGV[3 + i]) or 1
  local data = redis.pcall('HMGET', key, 'tokens', 'ts', 'held', 'held_until')
  if data.err then
    -- A key that is not a hash (a stray key): its request is not limited, the others still are.
    out[2 * i - 1] = -1
    out[2 * i] = '0'
  else
    local tokens = tonumber(data[1]) or burst
    local ts = tonumber(data[2]) or now
    local held = tonumber(data[3]) or 0
    local heldUntil = tonumber(data[4]) or 0
    if now >= heldUntil then held = 0 end
    tokens = math.min(burst - held, tokens + (now - ts) * rate / 1000)
    local granted = 0
    if tokens >= 1 then
      granted = 1
      local spare = math.floor(tokens - 1 - burst / 2)
      if lease > 0 and want > 1 and spare > 0 then
        local extra = math.min(want - 1, spare)
        granted = 1 + extra
        held = held + extra
        heldUntil = now + lease
      end
      tokens = tokens - granted
    end
    redis.call('HSET', key, 'tokens', tostring(tokens), 'ts', tostring(now), 'held', tostring(held),
      'held_until', tostring(heldUntil))
    redis.call('PEXPIRE', key, ttl)
    out[2 * i - 1] = granted
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
  /** Tokens asked for: more than 1 only for the first request of its key in a call, when leasing. */
  want: number;
  /** The first request of its key in its call: its answer renews the key's lease. */
  leads: boolean;
  resolve(decision: RateDecision): void;
}

/**
 * Tokens this replica took from a key's bucket beyond the request that asked for them, spent here without a Redis
 * call until they lapse. Kept after lapsing (until swept) to size the next ask.
 */
interface Lease {
  /** Tokens left to spend here. */
  tokens: number;
  /** The bucket's tokens just after the grant (RateLimit-Remaining counts them with `tokens`). */
  left: number;
  /** performance.now() from which the tokens are not spent: RATE_LIMIT_LEASE_MS after the call that granted them was
   * sent, so no later than Redis stops holding them back from the bucket. */
  until: number;
  /** What the call that granted it asked for. */
  want: number;
  /** Requests it served, the one that asked included. */
  used: number;
}

/** Leases kept at most; past it the lapsed ones are dropped, and new keys go without one until there is room. */
export const MAX_LEASES = 10_000;

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
 *
 * Leases (RATE_LIMIT_LEASE_MS, 0 turns them off; ADR 0020): a key whose requests keep coming asks for more tokens
 * than the request in hand (twice the last ask while its lease was still fresh, else what the lapsed lease served, at
 * most a lease's worth of the rate), and this replica spends the rest without a Redis call for up to
 * RATE_LIMIT_LEASE_MS, counted from when the call was sent (so never past the moment Redis stops counting them as
 * held). Redis grants the extra only from the upper half of the bucket and does not refill what is held, so the
 * bucket and the leases never hold more than the burst, and a key with less than half its bucket gets no new lease.
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
  private readonly leaseMs: number;
  private readonly maxWant: number;
  private readonly leases = new Map<string, Lease>();
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private lastWarnAt = 0;

  constructor(@Inject(REDIS_WITHOUT_REPLAY) redis: Redis, @Inject(GatewayConfig) config: GatewayConfig) {
    this.redis = redis as TokenRedis;
    this.prefix = `${config.REDIS_KEY_PREFIX}ratelimit:`;
    this.rate = config.RATE_LIMIT_PER_SECOND;
    this.burst = config.RATE_LIMIT_BURST || config.RATE_LIMIT_PER_SECOND * 2;
    this.timeoutMs = config.RATE_LIMIT_TIMEOUT_MS;
    this.leaseMs = config.RATE_LIMIT_LEASE_MS;
    this.maxWant = Math.max(1, Math.ceil((this.rate * this.leaseMs) / 1000));
    this.limitHeader = String(this.burst);
    this.policyHeader = `${this.burst};w=${Math.ceil(this.burst / this.rate)}`;
    // EVALSHA (the script is sent once per connection, not with every call); no fixed key count.
    if (!this.redis.takeTokens) this.redis.defineCommand('takeTokens', { lua: TOKEN_BUCKETS });
  }

  /** Takes one token for `subject`. If Redis cannot answer, the request passes (and it is logged). */
  take(subject: string): Promise<RateDecision> {
    const key = this.prefix + subject;
    const leased = this.spend(key);
    if (leased !== undefined) return Promise.resolve(leased);
    // A connection that is not ready (connecting, reconnecting) cannot take the call: send nothing.
    if (!redisReady(this.redis)) {
      this.warnUnavailable(`connection ${this.redis.status}`, 1);
      return Promise.resolve(UNLIMITED);
    }
    return new Promise<RateDecision>((resolve) => {
      this.waiting.push({ key, want: 1, leads: false, resolve });
      if (this.inFlight < MAX_CALLS_IN_FLIGHT) this.send();
    });
  }

  /** A token of `key`'s fresh lease, if it has one left: the decision, without Redis. */
  private spend(key: string): RateDecision | undefined {
    if (this.leaseMs <= 0) return undefined;
    const lease = this.leases.get(key);
    if (lease === undefined || lease.tokens < 1 || performance.now() >= lease.until) return undefined;
    lease.tokens--;
    lease.used++;
    return this.decision(true, lease.left + lease.tokens);
  }

  private send(): void {
    // A call answered since these requests queued may have leased their key tokens: those need no call.
    if (this.leaseMs > 0) {
      this.waiting = this.waiting.filter((w) => {
        const leased = this.spend(w.key);
        if (leased !== undefined) w.resolve(leased);
        return leased === undefined;
      });
      if (this.waiting.length === 0) return;
    }
    const sentAt = performance.now();
    const batch = this.waiting.length <= MAX_KEYS_PER_CALL ? this.waiting : this.waiting.slice(0, MAX_KEYS_PER_CALL);
    this.waiting = batch === this.waiting ? [] : this.waiting.slice(MAX_KEYS_PER_CALL);
    this.inFlight++;
    const args: (string | number)[] = [batch.length];
    for (let i = 0; i < batch.length; i++) args.push(batch[i].key);
    args.push(this.rate, this.burst);
    if (this.leaseMs > 0) {
      args.push(this.leaseMs);
      this.ask(batch, args, sentAt);
    }
    let settled = false;
    const settle = (result: unknown, err?: string, alsoPassed = 0): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        this.answer(batch, result, err, alsoPassed, sentAt);
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
  private answer(batch: Waiting[], result: unknown, err: string | undefined, alsoPassed: number, sentAt: number): void {
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
    const now = performance.now();
    let unreadable = 0;
    for (let i = 0; i < batch.length; i++) {
      const granted = reply[2 * i];
      if (typeof granted === 'number' && Number.isInteger(granted) && granted >= 0) {
        const left = Number(reply[2 * i + 1]);
        if (batch[i].leads && granted >= 1) this.lease(batch[i], granted, left, sentAt, now);
        batch[i].resolve(this.decision(granted >= 1, left + Math.max(0, granted - 1)));
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

  /**
   * Adds each request's ask to the call's arguments (ARGV after rate, burst and lease): the first request of a key asks
   * for its lease's next size, the others for one token.
   */
  private ask(batch: Waiting[], args: (string | number)[], now: number): void {
    let asked: Set<string> | undefined;
    for (const w of batch) {
      if (asked?.has(w.key)) {
        args.push(1);
        continue;
      }
      (asked ??= new Set()).add(w.key);
      const lease = this.leases.get(w.key);
      // Spent while fresh: the key's requests outpace the lease, so twice as much. Lapsed: what it served.
      const next = lease === undefined ? 1 : now < lease.until ? lease.want * 2 : lease.used;
      w.want = Math.max(1, Math.min(this.maxWant, next));
      w.leads = true;
      args.push(w.want);
    }
  }

  /**
   * Records what a leading request was granted beyond itself, lapsing RATE_LIMIT_LEASE_MS after the call was sent.
   * Tokens still fresh in the key's previous lease are kept: a grant with extra tokens makes Redis hold them all until
   * its own lease ends; a grant of one token does not, so then they keep the lapse they had.
   * The map is kept in renewal order, so the lapsed leases to drop when it is full are at its front.
   */
  private lease(w: Waiting, granted: number, left: number, sentAt: number, now: number): void {
    const old = this.leases.get(w.key);
    if (old !== undefined) this.leases.delete(w.key);
    else if (this.leases.size >= MAX_LEASES) {
      for (const [key, lease] of this.leases) {
        if (now < lease.until) break;
        this.leases.delete(key);
      }
      if (this.leases.size >= MAX_LEASES) return;
    }
    const kept = old !== undefined && now < old.until ? old.tokens : 0;
    const until = granted === 1 && kept > 0 ? old!.until : sentAt + this.leaseMs;
    this.leases.set(w.key, { tokens: kept + granted - 1, left, until, want: w.want, used: 1 });
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
