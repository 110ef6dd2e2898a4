import { Controller } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { ErrorCodes, type RpcContext, type RpcReply } from '@payments/contracts';
import {
  STORE_DATA_REFUSED_MESSAGE,
  STORE_OUTCOME_UNKNOWN_MESSAGE,
  STORE_UNREACHABLE_MESSAGE,
  isConnectionError,
  isDataError,
  isDeadlineExceeded,
  isOutcomeUnknown,
} from '@payments/database';
import { DomainException } from './domain-exception';
import { rootLogger } from './logger';
import { rpcRequestDuration } from './metrics';
import { runWithContext } from './request-context';

/** What the caller gets for a bug of ours: Nest's RPC exception filter turns it into its generic error. */
const INTERNAL = { message: 'internal error' };

/**
 * Runs one RPC handler in the caller's request context (logs carry its request id): a result → `{ ok: true, data }`; a
 * DomainException, data error (22xxx) or unreachable store → `{ ok: false, error }` (saying whether a retry is safe).
 * Anything else is a bug: logged, and the gateway answers 500.
 */
export function rpcReply(pattern: string, payload: unknown, handle: () => unknown): Promise<RpcReply<unknown>> {
  const started = process.hrtime.bigint();
  const observe = (outcome: string) =>
    rpcRequestDuration.observe({ pattern, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
  const requestId = (payload as { ctx?: RpcContext } | undefined)?.ctx?.request_id;
  return runWithContext({ request_id: requestId }, async (): Promise<RpcReply<unknown>> => {
    try {
      const data = await handle();
      observe('ok');
      return { ok: true, data };
    } catch (err) {
      return refusal(pattern, err, observe);
    }
  });
}

function refusal(pattern: string, err: unknown, observe: (outcome: string) => void): RpcReply<unknown> {
  if (err instanceof DomainException) {
    observe(err.code);
    return { ok: false, error: err.toPayload() };
  }
  if (isOutcomeUnknown(err)) {
    // The connection broke while an autocommit statement or a COMMIT was in flight: the server may
    // have committed it. Answered like a broken RPC connection at the gateway (whose idempotency
    // layer keeps this answer): check the outcome, do not blindly retry.
    observe('outcome_unknown');
    rootLogger().error({ err, pattern }, 'RPC handler lost its store connection mid-write; outcome unknown');
    return { ok: false, error: { code: ErrorCodes.OutcomeUnknown, message: STORE_OUTCOME_UNKNOWN_MESSAGE } };
  }
  if (isDeadlineExceeded(err)) {
    // Not started, or cancelled and rolled back, because the caller's deadline had passed (or
    // statement_timeout): nothing was written. The caller has usually stopped waiting already.
    observe('deadline_exceeded');
    rootLogger().warn({ pattern }, 'RPC work not done: its deadline passed; nothing was written');
    return {
      ok: false,
      error: {
        code: ErrorCodes.ServiceUnavailable,
        message: 'the request took too long and was not applied; try again',
        not_executed: true,
      },
    };
  }
  if (isConnectionError(err)) {
    // No connection was had, or it broke inside BEGIN … COMMIT before the COMMIT was sent (the
    // server rolls that transaction back): nothing was written, a retry is safe — so the gateway
    // releases the Idempotency-Key rather than keeping this answer for the key's lifetime.
    observe('service_unavailable');
    rootLogger().error({ err, pattern }, 'RPC handler could not reach a store');
    return {
      ok: false,
      error: { code: ErrorCodes.ServiceUnavailable, message: STORE_UNREACHABLE_MESSAGE, not_executed: true },
    };
  }
  if (isDataError(err)) {
    // PostgreSQL refused a value (SQLSTATE 22xxx): the caller's input, not a bug of ours.
    // The statement failed, so nothing was written. The driver's message may quote the
    // value, so only its code is logged and none of it is returned.
    observe(ErrorCodes.ValidationError);
    rootLogger().warn(
      {
        pattern,
        sqlstate: (err as { code?: string }).code ?? (err as { driverError?: { code?: string } }).driverError?.code,
      },
      'RPC input refused by the database',
    );
    return { ok: false, error: { code: ErrorCodes.ValidationError, message: STORE_DATA_REFUSED_MESSAGE } };
  }
  observe('error');
  rootLogger().error({ err, pattern }, 'RPC handler failed');
  throw INTERNAL;
}

/**
 * A controller of RPC handlers, each wrapped by rpcReply on the prototype rather than by a Nest interceptor, whose rxjs
 * chain cost ≈ 10 % of transaction-service's CPU. A handler's first argument is its payload.
 */
export function RpcController(): ClassDecorator {
  return (target) => {
    Controller()(target);
    const proto = target.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = proto[name];
      if (name === 'constructor' || typeof method !== 'function') continue;
      const patterns = Reflect.getMetadata(PATTERN_METADATA, method) as unknown[] | undefined;
      if (!patterns) continue;
      const pattern = typeof patterns[0] === 'string' ? patterns[0] : name;
      const wrapped = function (this: unknown, ...args: unknown[]) {
        return rpcReply(pattern, args[0], () => (method as (...a: unknown[]) => unknown).apply(this, args));
      };
      for (const key of Reflect.getMetadataKeys(method))
        Reflect.defineMetadata(key, Reflect.getMetadata(key, method), wrapped);
      Object.defineProperty(wrapped, 'name', { value: method.name });
      Object.defineProperty(proto, name, { ...Object.getOwnPropertyDescriptor(proto, name), value: wrapped });
    }
  };
}
