import type { FastifyInstance } from 'fastify';
import { httpRequestDuration, randomBase62, rootLogger, runWithContext } from '@payments/platform';
import { header, requestPath, type ApiReply, type ApiRequest } from './http-types';
import { settleIdempotency } from './idempotency';
import { sendInputProblem } from './input-rejection';
import { checkRequestTarget, type InputProblem } from './input-guard';

const INCOMING_ID = /^[A-Za-z0-9_.:-]{8,100}$/;

const API_CSP = "default-src 'none'; frame-ancestors 'none'";
// /docs serves Swagger UI (its own scripts and styles).
const DOCS_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
  "frame-ancestors 'none'";
// The merchant dashboard's pages: only its own script files (no inline script, no eval); inline
// styles are allowed because the component kit and the charts set style attributes.
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function csp(path: string): string {
  const p = path.toLowerCase();
  if (p === '/docs' || p.startsWith('/docs/')) return DOCS_CSP;
  if ((p === '/dashboard' || p.startsWith('/dashboard/')) && !p.startsWith('/dashboard/api/')) return DASHBOARD_CSP;
  return API_CSP;
}

/**
 * Ids, security headers and the path and query check on every request, before any body is read;
 * the rest of the request runs in a log context carrying the id.
 */
export function registerRequestHooks(fastify: FastifyInstance): void {
  fastify.decorateRequest('requestId', '');
  fastify.decorateRequest('principal', undefined);
  fastify.decorateRequest('idempotencyClaim', undefined);
  fastify.decorateRequest('notExecuted', false);
  fastify.decorateRequest('rerunAfter', undefined);
  fastify.decorateRequest('dashboard', undefined);

  fastify.addHook('onRequest', (req, reply, done) => {
    const problem = stampRequest(req, reply);
    if (problem) return sendInputProblem(req, reply, problem);
    runWithContext({ request_id: req.requestId }, done);
  });

  // Swagger UI's page is sent as bare `text/html`; the API has always named the charset. An
  // answer to a request holding an Idempotency-Key is kept before it leaves.
  fastify.addHook('onSend', (req, reply, payload, done) => {
    if (reply.getHeader('content-type') === 'text/html') reply.header('content-type', 'text/html; charset=utf-8');
    settleIdempotency(req, reply, payload, done);
  });

  fastify.addHook('onResponse', (req, reply, done) => {
    const seconds = reply.elapsedTime / 1000;
    // Only declared routes become label values: any path an outsider invents shares one series.
    const route = req.is404 ? 'unmatched' : (req.routeOptions.url ?? 'unmatched');
    httpRequestDuration.observe({ method: req.method, route, status: String(reply.statusCode) }, seconds);
    const path = requestPath(req);
    const logger = rootLogger();
    if (!path.startsWith('/health') && logger.isLevelEnabled('info')) {
      runWithContext({ request_id: req.requestId }, () =>
        logger.info(
          { method: req.method, path, status: reply.statusCode, duration_ms: Math.round(seconds * 1000) },
          'request',
        ),
      );
    }
    done();
  });
}

/**
 * Gives the request its id and the security headers, and checks its path and query string.
 * Also used for URLs the router refuses before any hook runs (Fastify's frameworkErrors).
 */
export function stampRequest(req: ApiRequest, reply: ApiReply): InputProblem | undefined {
  const incoming = header(req, 'x-request-id');
  const id = incoming !== undefined && INCOMING_ID.test(incoming) ? incoming : `req_${randomBase62(20)}`;
  req.requestId = id;
  const path = requestPath(req);
  reply.headers({
    'x-request-id': id,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'cross-origin-opener-policy': 'same-origin',
    'content-security-policy': csp(path),
  });
  // Dashboard answers are one user's data: never kept by a browser or proxy cache.
  if (path.toLowerCase().startsWith('/dashboard/api/')) reply.header('cache-control', 'no-store');
  return checkRequestTarget(req.url);
}
