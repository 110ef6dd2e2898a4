import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ErrorCodes } from '@payments/contracts';
import { rootLogger } from '@payments/platform';
import { REDIS, redisReady, withinDeadline } from '@payments/redis';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from './api-exception';
import { legacyRequestFingerprint, requestFingerprint, sha256 } from './idempotency-fingerprint';
import { header as requestHeader, type ApiReply, type ApiRequest } from './http-types';

interface Stored {
  /**
   * `unknown`: the request was sent to a service idempotent on the key and no answer came
   * (outcome_unknown); from `rerun_after` on, a retry with the same request runs again and gets
   * the real outcome from the service.
   */
  state: 'running' | 'done' | 'unknown';
  fingerprint: string;
  /** A running record's claim: which request holds the key (its answer is kept only if it still does). */
  claim?: string;
  status?: number;
  body?: unknown;
  rerun_after?: number;
}

/** Replaces the record in KEYS[1] by ARGV[2] (for ARGV[3] ms) only if it is still ARGV[1]. */
export const TAKE_OVER =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then " +
  "return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end return false";

/**
 * Settles a claim only if KEYS[1] still holds its record ARGV[1] (or nothing): keeps ARGV[2] for ARGV[3] seconds, or
 * deletes the key if ARGV[2] is empty. A key since claimed by another request is left alone. 1 if settled.
 */
export const SETTLE = `local v = redis.call('GET', KEYS[1])
if v ~= ARGV[1] and v ~= false then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) end
return 1`;

/** A stored record, or undefined when it is not one (not JSON, or not of this shape). */
function parseStored(raw: string): Stored | undefined {
  try {
    const stored = JSON.parse(raw) as Partial<Stored> | null;
    const valid =
      stored !== null &&
      typeof stored === 'object' &&
      typeof stored.fingerprint === 'string' &&
      (stored.state === 'running' || stored.state === 'done' || stored.state === 'unknown');
    return valid ? (stored as Stored) : undefined;
  } catch {
    return undefined;
  }
}

/** The key a request holds from its claim until its answer is kept (or released). */
export interface IdempotencyClaim {
  owner: Idempotency;
  redisKey: string;
  fingerprint: string;
  /** The running record this request stored: settling compares it, so only its own claim is replaced. */
  running: string;
  /** The key as the services see it (ctx.idempotency_key): bound to the scope, the key and the request's parameters. */
  serviceKey: string;
}

/** Statuses of requests refused before they ran: the key is released so the caller can retry with it. */
const REFUSED_BEFORE_RUNNING = new Set([400, 401, 403, 413, 429]);

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** A request still running holds its key at most this much longer than its RPC deadline. */
const RUNNING_MARGIN_MS = 30_000;

/**
 * Keys are kept per business, mode and key type, so whoever holds a public key (published in web pages) cannot claim
 * keys the merchant's secret-key calls then collide with. Secret-key keys keep the old namespace so old records replay.
 */
export function idempotencyScope(req: Pick<ApiRequest, 'principal'>): string {
  const p = req.principal;
  if (!p) return 'admin';
  return p.key_type === 'secret' ? `${p.business_id}:${p.mode}` : `${p.business_id}:${p.mode}:${p.key_type}`;
}

/**
 * A replay of a kept answer, thrown by the claim so that nothing after the guard runs; the
 * exceptions filter sends it with `Idempotent-Replayed: true`.
 */
export class IdempotentReplay extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('idempotent replay');
    this.name = 'IdempotentReplay';
  }
}

/**
 * Stripe's Idempotency-Key semantics on every POST (docs/api.md), claimed by an atomic SET NX in Redis so it holds
 * across requests and replicas. Answers refused before running, and outcome_unknown of KEY_IDEMPOTENT_PATTERNS, are not
 * kept so a retry can run; any other is kept, since running it again could apply it twice.
 */
@Injectable()
export class Idempotency {
  private lastWarnAt = 0;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  /**
   * Claims the request's Idempotency-Key, or throws the answer to give instead (malformed key, replay, reused or
   * running key); undefined when there is nothing to wait for. The admin guard passes `admin` (it knows, whatever the
   * path's case); `scope` keeps dashboard users' keys apart from merchants' API keys.
   */
  claim(req: ApiRequest, by: { admin?: boolean; scope?: string } = {}): Promise<void> | undefined {
    if (req.method !== 'POST') return undefined;
    const key = requestHeader(req, 'idempotency-key');
    // Merchant (API key) and admin requests only; the checkout page's form posts carry no key.
    if (key === undefined || (req.principal === undefined && by.admin !== true)) return undefined;
    return this.claimKey(req, key, by.scope ?? idempotencyScope(req));
  }

  private async claimKey(req: ApiRequest, key: string, scope: string): Promise<void> {
    if (!KEY_FORMAT.test(key)) {
      throw new ApiException(ErrorCodes.ValidationError, 'Idempotency-Key must be 1 to 255 visible ASCII characters', [
        { field: 'Idempotency-Key', message: 'is malformed' },
      ]);
    }
    const redisKey = `${this.config.REDIS_KEY_PREFIX}idempotency:${scope}:${key}`;
    const fingerprint = requestFingerprint(req.method, req.originalUrl, req.body);
    const running = JSON.stringify({ state: 'running', fingerprint, claim: randomUUID() } satisfies Stored);
    const holdMs = this.config.RPC_TIMEOUT_MS + RUNNING_MARGIN_MS;
    // A connection that is down would hold the claim until Redis is back: the request is refused
    // at once instead (it has not run), and a claim that gets no answer in time is refused too.
    if (!redisReady(this.redis)) this.unavailable(req, `connection ${this.redis.status}`);
    let claimed: unknown;
    let raw: string | null = null;
    try {
      // One deadline for the whole claim, however many calls it takes.
      const deadline = Date.now() + this.config.REDIS_TIMEOUT_MS;
      const ms = () => Math.max(deadline - Date.now(), 1);
      const read = () => withinDeadline(this.redis.get(redisKey), ms(), 'idempotency record');
      claimed = await withinDeadline(this.redis.set(redisKey, running, 'PX', holdMs, 'NX'), ms(), 'idempotency claim');
      if (claimed !== 'OK') raw = await read();
      if (raw !== null && raw !== running && parseStored(raw) === undefined) {
        // An unreadable record (e.g. a body that was not JSON) would fail every retry for the
        // TTL: it counts as absent. Taken over only if it is still that record, so two retries
        // cannot both claim the key.
        rootLogger().error({ scope: idempotencyScope(req) }, 'unreadable idempotency record; claiming the key again');
        claimed = await withinDeadline(
          this.redis.eval(TAKE_OVER, 1, redisKey, raw, running, holdMs),
          ms(),
          'idempotency take-over',
        );
        if (claimed !== 'OK') raw = await read();
      }
      // An earlier attempt got outcome_unknown from a service idempotent on the key and can no longer
      // commit: this retry runs again and the service answers with what the first attempt did. Taken
      // over only if the record is still that one, so of two retries one runs.
      const stored = raw === null ? undefined : parseStored(raw);
      if (
        raw !== null &&
        stored?.state === 'unknown' &&
        this.sameRequest(req, stored, fingerprint) &&
        Date.now() >= (stored.rerun_after ?? 0)
      ) {
        claimed = await withinDeadline(
          this.redis.eval(TAKE_OVER, 1, redisKey, raw, running, holdMs),
          ms(),
          'idempotency re-run',
        );
        if (claimed !== 'OK') raw = await read();
      }
      // The key holds this request's own claim (its token is this request's alone): Redis applied
      // the call, its answer was lost with the connection, and ioredis sent it again after the
      // reconnect, where it answered as if another request held the key.
      if (raw === running) claimed = 'OK';
    } catch (err) {
      // A claim sent but unanswered may still be applied later (ioredis resends it after a reconnect):
      // the release queued behind it on the same connection removes only this claim's record. Until
      // then a retry on another replica may get 409 idempotency_in_progress; it never runs twice.
      this.release(redisKey, running);
      this.unavailable(req, (err as Error).message);
    }
    if (claimed !== 'OK') return this.replay(req, raw, fingerprint);
    const serviceKey = sha256(`${scope}\n${key}\n${fingerprint}`);
    req.idempotencyClaim = { owner: this, redisKey, fingerprint, running, serviceKey };
  }

  private sameRequest(req: ApiRequest, stored: Stored, fingerprint: string): boolean {
    return (
      stored.fingerprint === fingerprint ||
      stored.fingerprint === legacyRequestFingerprint(req.method, req.originalUrl, req.body)
    );
  }

  private replay(req: ApiRequest, raw: string | null, fingerprint: string): never {
    const stored = raw === null ? undefined : parseStored(raw);
    if (!stored)
      throw new ApiException(
        ErrorCodes.IdempotencyInProgress,
        'a request with this Idempotency-Key has just finished; retry',
      );
    if (!this.sameRequest(req, stored, fingerprint)) {
      throw new ApiException(
        ErrorCodes.IdempotencyKeyReused,
        'this Idempotency-Key was used with a different request; use a new key',
      );
    }
    if (stored.state === 'running')
      throw new ApiException(
        ErrorCodes.IdempotencyInProgress,
        'a request with this Idempotency-Key is still in progress',
      );
    if (stored.state === 'unknown') {
      const wait = Math.max(1, Math.ceil(((stored.rerun_after ?? 0) - Date.now()) / 1000));
      throw new ApiException(
        ErrorCodes.IdempotencyInProgress,
        `the first attempt with this Idempotency-Key may still be applied; retry with the same key in ${wait} s`,
        undefined,
        { 'Retry-After': String(wait) },
      );
    }
    throw new IdempotentReplay(stored.status ?? 200, stored.body);
  }

  /**
   * Keeps the answer about to be sent under the claimed key, or releases the key when the request
   * was refused before it ran (its status, or `notExecuted` from the exceptions filter). Either
   * only while the key still holds this request's claim: one compare-and-set script.
   */
  async settle(
    req: ApiRequest,
    claim: IdempotencyClaim,
    status: number,
    contentType: unknown,
    payload: unknown,
  ): Promise<void> {
    let stored = '';
    if (req.rerunAfter !== undefined && !req.notExecuted) {
      // Not kept as an answer: a retry with the same request runs again once the first attempt can no longer commit.
      stored = JSON.stringify({
        state: 'unknown',
        fingerprint: claim.fingerprint,
        rerun_after: req.rerunAfter,
      } satisfies Stored);
    } else if (!req.notExecuted && !REFUSED_BEFORE_RUNNING.has(status)) {
      // The payload is the JSON text that is sent: kept as it is, not serialised again. A payload that
      // says JSON but is not is kept as a string: an unreadable record would let a retry run again.
      const isJson =
        typeof contentType === 'string' &&
        contentType.startsWith('application/json') &&
        typeof payload === 'string' &&
        isJsonText(payload);
      const body = typeof payload !== 'string' ? undefined : isJson ? payload : JSON.stringify(payload);
      const bodyField = body === undefined ? '' : `,"body":${body}`;
      stored = `{"state":"done","fingerprint":${JSON.stringify(claim.fingerprint)},"status":${status}${bodyField}}`;
    }
    try {
      // Past the deadline the answer is sent anyway: the script stays queued in ioredis and keeps
      // it once Redis answers, as long as the key still holds this claim.
      const call = this.redis.eval(
        SETTLE,
        1,
        claim.redisKey,
        claim.running,
        stored,
        this.config.IDEMPOTENCY_TTL_SECONDS,
      );
      const settled = await withinDeadline(call, this.config.REDIS_TIMEOUT_MS, 'idempotency settle');
      if (settled !== 1) {
        // This request outlived its claim (RPC deadline + margin) and a retry claimed the key:
        // the retry's answer is the one kept, so this one is not written over it.
        rootLogger().warn(
          { scope: idempotencyScope(req), status },
          'idempotency claim expired and another request holds the key now; left to it',
        );
      }
    } catch (err) {
      rootLogger().error(
        { err: (err as Error).message, scope: idempotencyScope(req), status },
        stored === '' ? 'could not release an idempotency key yet' : 'could not store an idempotent response yet',
      );
    }
  }

  /** Refuses the request before it ran (503), logging at most once a second while Redis is unavailable. */
  private unavailable(req: ApiRequest, why: string): never {
    const now = Date.now();
    if (now - this.lastWarnAt >= 1_000) {
      this.lastWarnAt = now;
      rootLogger().warn(
        { err: why, scope: idempotencyScope(req) },
        'idempotency keys unavailable; request refused before it ran',
      );
    }
    throw new ApiException(ErrorCodes.ServiceUnavailable, 'idempotency keys are unavailable right now; retry shortly');
  }

  /** Removes `running` from `redisKey` if it is still there, without waiting for the answer. */
  private release(redisKey: string, running: string): void {
    this.redis.eval(SETTLE, 1, redisKey, running, '', 1).catch(() => undefined);
  }
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Fastify onSend hook: a request holding a claim has its answer kept before it is sent. */
export function settleIdempotency(
  req: ApiRequest,
  reply: ApiReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
): void {
  const claim = req.idempotencyClaim;
  if (claim === undefined) return done(null, payload);
  req.idempotencyClaim = undefined;
  void claim.owner
    .settle(req, claim, reply.statusCode, reply.getHeader('content-type'), payload)
    .then(() => done(null, payload));
}
