import { networkInterfaces } from 'node:os';
import { parse as parseQuery } from 'node:querystring';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCodes } from '@payments/contracts';
import { BODY_LIMIT, registerBodyParsers } from './body-parsers';
import { sendError } from './error-body';
import type { ApiReply, ApiRequest } from './http-types';
import { answerClientError, sendInputProblem } from './input-rejection';
import { registerRequestHooks, stampRequest } from './request-hooks';

/**
 * Idle keep-alive connections are kept longer than a load balancer keeps its own (ingress-nginx 60 s,
 * AWS ALB 60 s): a proxy that reuses a connection the gateway just closed answers a POST with 502.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** Node's own default, which the gateway served with before it moved to Fastify. */
const REQUEST_TIMEOUT_MS = 300_000;

/**
 * The gateway gives Fastify no route schemas (Nest's pipes validate), so Fastify's Ajv validator
 * and fast-json-stringify serializer compilers are never used. Supplying these keeps Fastify from
 * loading them at boot (≈ 1 MB less code in an idle gateway).
 */
const NO_ROUTE_SCHEMAS = (): never => {
  throw new Error('the gateway declares no Fastify route schemas');
};

/** A URL the router cannot decode: answered like any other bad request target. */
function answerFrameworkError(_err: Error, req: ApiRequest, reply: ApiReply): void {
  const problem = stampRequest(req, reply);
  if (problem) return sendInputProblem(req, reply, problem);
  sendError(reply, 400, {
    code: ErrorCodes.ValidationError,
    message: 'the URL path is not valid percent-encoded UTF-8',
    request_id: req.requestId,
  });
}

/**
 * The gateway's HTTP server: Fastify, set up to answer exactly as the API always has (flat query
 * strings, case-insensitive paths with an optional trailing slash, the API's error body for requests
 * refused before routing), with idle connections outliving a proxy's (KEEP_ALIVE_TIMEOUT_MS).
 */
export function createHttpAdapter(trustedProxies: string[] | false): FastifyAdapter {
  const adapter = new FastifyAdapter({
    logger: false,
    // The load balancer's addresses (TRUSTED_PROXIES): the client is the last address before them.
    trustProxy: trustedProxies,
    bodyLimit: BODY_LIMIT,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // During shutdown, requests on open connections are still answered (they are drained).
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    schemaController: {
      compilersFactory: { buildValidator: () => NO_ROUTE_SCHEMAS, buildSerializer: () => NO_ROUTE_SCHEMAS },
    },
    frameworkErrors: answerFrameworkError,
    routerOptions: {
      // `created[gte]=…` stays one flat key: the request schemas name the bracketed keys.
      querystringParser: (s: string) => parseQuery(s),
      ignoreTrailingSlash: true,
      caseSensitive: false,
      // Ids in paths are validated by the handlers (a long one is a 404, not a router error).
      maxParamLength: 8 * 1024,
    },
  });
  const fastify = adapter.getInstance();
  // Once closing, a connection idle for a second is closed (Node reads the timeout after each answer): a
  // request in flight at SIGTERM would otherwise keep its connection open past the shutdown deadline.
  fastify.addHook('preClose', (done) => {
    fastify.server.keepAliveTimeout = 1;
    done();
  });
  registerRequestHooks(fastify);
  registerBodyParsers(fastify);
  return adapter;
}

export type GatewayHttpApp = NestFastifyApplication;

/**
 * Every interface, as Node's listen() without a host did (Fastify's default is localhost only):
 * `::` (which takes IPv4 too) where the host has IPv6, else 0.0.0.0.
 */
export function anyAddress(): string {
  const ipv6 = Object.values(networkInterfaces()).some((list) => list?.some((a) => a.family === 'IPv6'));
  return ipv6 ? '::' : '0.0.0.0';
}
