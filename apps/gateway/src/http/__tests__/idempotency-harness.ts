import type { ArgumentsHost } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AllExceptionsFilter } from '../all-exceptions.filter';
import type { GatewayConfig } from '../../config/gateway.config';
import type { ApiReply, ApiRequest } from '../http-types';
import { Idempotency, SETTLE, TAKE_OVER, settleIdempotency } from '../idempotency';

/* The Idempotency-Key specs' in-memory Redis, Fastify reply and request (no I/O). */

export const URL_PATH = '/transaction/initialize';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  payload: string;
}

/**
 * The part of Fastify's reply the handler's answer, the exceptions filter and the onSend hook
 * use; `sent` resolves with what went out once the hook let it go.
 */
export function fakeReply(req: ApiRequest) {
  const answer: Answer = { status: 200, headers: {}, payload: '' };
  let release: (a: Answer) => void = () => undefined;
  const sent = new Promise<Answer>((resolve) => (release = resolve));
  const reply = {
    get statusCode() {
      return answer.status;
    },
    header(k: string, v: string) {
      answer.headers[k.toLowerCase()] = v;
      return reply;
    },
    headers(h: Record<string, string>) {
      for (const [k, v] of Object.entries(h)) reply.header(k, v);
      return reply;
    },
    code(s: number) {
      answer.status = s;
      return reply;
    },
    type(t: string) {
      return reply.header('content-type', t);
    },
    getHeader: (k: string) => answer.headers[k.toLowerCase()],
    // Fastify serialises an object as JSON, then runs the onSend hooks before writing.
    send(body: unknown) {
      let payload = body;
      if (typeof body === 'object' && body !== null) {
        answer.headers['content-type'] ??= 'application/json; charset=utf-8';
        payload = JSON.stringify(body);
      }
      settleIdempotency(req, reply as unknown as ApiReply, payload, (_err, out) =>
        release({ ...answer, payload: String(out) }),
      );
      return reply;
    },
  };
  return { reply, sent };
}

/**
 * The claim, the handler and the exceptions filter over an in-memory Redis (`store`), as one
 * business's POST with Idempotency-Key key-1: the guard claims, the handler's answer is sent with
 * the route's status (200) or its error goes through the filter, and the onSend hook keeps it.
 */
export function harness(store = new Map<string, string>()) {
  const redis = {
    set: async (k: string, v: string, ...opts: unknown[]) =>
      opts.includes('NX') && store.has(k) ? null : (store.set(k, v), 'OK'),
    get: async (k: string) => store.get(k) ?? null,
    // The scripts as Redis runs them (tests/medium/idempotency-claim.test.ts runs the real ones).
    eval: async (script: string, _keys: number, k: string, was: string, now: string) => {
      if (script === TAKE_OVER) return store.get(k) === was ? (store.set(k, now), 'OK') : null;
      if (script !== SETTLE) throw new Error('unknown script');
      if (store.has(k) && store.get(k) !== was) return 0;
      if (now === '') store.delete(k);
      else store.set(k, now);
      return 1;
    },
  };
  const config = {
    REDIS_KEY_PREFIX: '',
    IDEMPOTENCY_TTL_SECONDS: 86_400,
    RPC_TIMEOUT_MS: 10_000,
    REDIS_TIMEOUT_MS: 1_000,
  };
  const idempotency = new Idempotency(redis as unknown as Redis, config as GatewayConfig);
  const call = async (
    sent: unknown,
    handle: () => Promise<unknown>,
    headers: Record<string, string> = { 'idempotency-key': 'key-1' },
  ): Promise<Answer> => {
    const req = keyedRequest(sent);
    req.headers = headers;
    const { reply, sent: answer } = fakeReply(req);
    try {
      await idempotency.claim(req);
      const body = await handle();
      reply.code(200).send(body);
    } catch (err) {
      const host = {
        switchToHttp: () => ({ getRequest: () => req, getResponse: () => reply }),
      } as unknown as ArgumentsHost;
      new AllExceptionsFilter().catch(err, host);
    }
    return answer;
  };
  return { call, store, idempotency };
}

/** One business's POST with Idempotency-Key `key` (key-1), as the API-key guard passes it to the claim. */
export function keyedRequest(body: unknown, key = 'key-1'): ApiRequest {
  return {
    method: 'POST',
    url: URL_PATH,
    originalUrl: URL_PATH,
    body,
    headers: { 'idempotency-key': key },
    requestId: 'req_1',
    notExecuted: false,
    principal: { business_id: 'biz_1', mode: 'test', key_type: 'secret' },
  } as unknown as ApiRequest;
}
