import { createHash } from 'node:crypto';
import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Redis } from 'ioredis';
import { Observable, from, lastValueFrom } from 'rxjs';
import { ErrorCodes } from '@payments/contracts';
import { rootLogger } from '@payments/platform';
import { REDIS } from '@payments/redis';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException, storeErrorAnswer } from './api-exception';
import { header as requestHeader, requestPath, type ApiReply, type ApiRequest } from './http-types';

interface Stored {
  state: 'running' | 'done';
  fingerprint: string;
  status?: number;
  body?: unknown;
}

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** A request still running holds its key at most this much longer than its RPC deadline. */
const RUNNING_MARGIN_MS = 30_000;

/**
 * Keys are kept per business, mode and key type. A public key is published in web pages, so
 * whoever holds it must not be able to claim keys that the merchant's secret-key calls then
 * collide with. Secret-key keys keep their original namespace so that keys stored before the
 * key type became part of it still replay.
 */
export function idempotencyScope(req: Pick<ApiRequest, 'principal'>): string {
  const p = req.principal;
  if (!p) return 'admin';
  return p.key_type === 'secret' ? `${p.business_id}:${p.mode}` : `${p.business_id}:${p.mode}:${p.key_type}`;
}

/**
 * The request's parameters in one spelling: object keys sorted at every depth, so the same body
 * with its keys in another order is the same request (Stripe compares parameters, not bytes).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fingerprint a record is stored with: method, URL as sent and the body's parameters. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return sha256(`${method} ${url}\n${canonicalJson(body ?? null)}`);
}

/**
 * The fingerprint records were stored with before it was canonical (the body's keys in the order
 * they were sent). A retry of such a request within IDEMPOTENCY_TTL_SECONDS of the deploy that
 * introduced canonical fingerprints must still replay, so a stored fingerprint matches either
 * spelling. Remove this fallback in any release deployed once that TTL (24 h by default) has
 * passed since the canonical release ran on every gateway replica: no record stored the old way
 * can be alive then. A body already in canonical order has the same fingerprint both ways, and
 * two different bodies never share either one, so the fallback cannot make a reuse pass.
 */
export function legacyRequestFingerprint(method: string, url: string, body: unknown): string {
  return sha256(`${method} ${url}\n${JSON.stringify(body ?? null)}`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Stripe's Idempotency-Key semantics on every POST: the first request with a key runs and its
 * response is kept IDEMPOTENCY_TTL_SECONDS per business, mode and key type; the same key and
 * body replay that response with `Idempotent-Replayed: true`; the same key with another body → 422
 * idempotency_key_reused; while the first still runs → 409 idempotency_in_progress. The claim is
 * an atomic SET NX in Redis, so it holds across concurrent requests and gateway replicas.
 * Requests refused before they ran (validation, auth, rate limit, a service that could not be
 * reached) are not kept, so they can be retried with the same key. Any other answer is kept and
 * replayed — a 5xx whose outcome is unknown included (Stripe does the same): running it again
 * could apply it twice, so the caller checks the outcome and uses a new key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const header = requestHeader(req, 'idempotency-key');
    // Merchant (API key) and admin requests only; the checkout page's form posts carry no key.
    const scoped = req.principal !== undefined || requestPath(req).startsWith('/admin/');
    if (req.method !== 'POST' || header === undefined || !scoped) return next.handle();
    return from(this.run(context, req, header, next));
  }

  private async run(context: ExecutionContext, req: ApiRequest, key: string, next: CallHandler): Promise<unknown> {
    if (!KEY_FORMAT.test(key)) {
      throw new ApiException(ErrorCodes.ValidationError, 'Idempotency-Key must be 1 to 255 visible ASCII characters', [{ field: 'Idempotency-Key', message: 'is malformed' }]);
    }
    const res = context.switchToHttp().getResponse<ApiReply>();
    const scope = idempotencyScope(req);
    const redisKey = `${this.config.REDIS_KEY_PREFIX}idempotency:${scope}:${key}`;
    const fingerprint = requestFingerprint(req.method, req.originalUrl, req.body);

    let claimed: string | null;
    try {
      claimed = await this.redis.set(redisKey, JSON.stringify({ state: 'running', fingerprint } satisfies Stored), 'PX', this.config.RPC_TIMEOUT_MS + RUNNING_MARGIN_MS, 'NX');
    } catch {
      throw new ApiException(ErrorCodes.ServiceUnavailable, 'idempotency keys are unavailable right now; retry shortly');
    }
    if (claimed !== 'OK') return this.replay(req, res, redisKey, fingerprint);

    const statusOk = (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ?? 201;
    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.keep(redisKey, { state: 'done', fingerprint, status: statusOk, body });
      return body;
    } catch (err) {
      // Kept as the exceptions filter answers it (a store error of the gateway's own included).
      const answer = err instanceof ApiException ? err : storeErrorAnswer(err);
      const refusedBeforeRunning = answer ? answer.notExecuted || [400, 401, 403, 413, 429].includes(answer.status) : false;
      if (refusedBeforeRunning) {
        await this.redis.del(redisKey).catch(() => undefined);
      } else {
        const body = answer
          ? { result: 'error', code: answer.code, message: answer.message, ...(answer.errors ? { errors: answer.errors } : {}), request_id: req.requestId }
          : { result: 'error', code: ErrorCodes.InternalError, message: `internal error; quote request id ${req.requestId} to support`, request_id: req.requestId };
        await this.keep(redisKey, { state: 'done', fingerprint, status: answer ? answer.status : 500, body });
      }
      throw err;
    }
  }

  private async keep(redisKey: string, value: Stored): Promise<void> {
    await this.redis
      .set(redisKey, JSON.stringify(value), 'EX', this.config.IDEMPOTENCY_TTL_SECONDS)
      .catch((err) => rootLogger().error({ err }, 'could not store an idempotent response'));
  }

  private async replay(req: ApiRequest, res: ApiReply, redisKey: string, fingerprint: string): Promise<unknown> {
    const raw = await this.redis.get(redisKey);
    if (!raw) throw new ApiException(ErrorCodes.IdempotencyInProgress, 'a request with this Idempotency-Key has just finished; retry');
    const stored = JSON.parse(raw) as Stored;
    const sameRequest = stored.fingerprint === fingerprint || stored.fingerprint === legacyRequestFingerprint(req.method, req.originalUrl, req.body);
    if (!sameRequest) {
      throw new ApiException(ErrorCodes.IdempotencyKeyReused, 'this Idempotency-Key was used with a different request; use a new key');
    }
    if (stored.state === 'running') throw new ApiException(ErrorCodes.IdempotencyInProgress, 'a request with this Idempotency-Key is still in progress');
    res.header('Idempotent-Replayed', 'true');
    res.status(stored.status ?? 200);
    return stored.body;
  }
}
