import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/api-keys.service';
import type { IdempotencyClaim } from './idempotency';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the onRequest hook (request-hooks.ts) before anything else runs. */
    requestId: string;
    /** Set by ApiKeyGuard once the API key is authenticated. */
    principal?: Principal;
    /** Set by the guards when the request claimed its Idempotency-Key (idempotency.ts). */
    idempotencyClaim?: IdempotencyClaim;
    /** Set by the exceptions filter when the answer says the request certainly never ran. */
    notExecuted: boolean;
    /** Set by the exceptions filter from ApiException.rerunAfter (an unknown outcome a retry may resolve). */
    rerunAfter: number | undefined;
  }
}

/** The gateway's request and reply (the Fastify adapter's objects, as Nest hands them over). */
export type ApiRequest = FastifyRequest;
export type ApiReply = FastifyReply;

/** The path without the query string, as the client sent it (not decoded). */
export function requestPath(req: { url: string }): string {
  const q = req.url.indexOf('?');
  return q === -1 ? req.url : req.url.slice(0, q);
}

/** A request header as one string (the first of repeated ones), or undefined. */
export function header(
  req: { headers: Record<string, string | string[] | undefined> },
  name: string,
): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
