import type { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, randomBase62, rootLogger, runWithContext } from '@payments/platform';

const INCOMING_ID = /^[A-Za-z0-9_.:-]{8,100}$/;

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
  }
}

/**
 * Gives every request an id (a caller's X-Request-Id is kept when well-formed), echoes it in
 * X-Request-Id, runs the request in a log context carrying it, and logs one line per request.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header('x-request-id');
  const id = incoming && INCOMING_ID.test(incoming) ? incoming : `req_${randomBase62(20)}`;
  req.requestId = id;
  res.setHeader('X-Request-Id', id);
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    // Only declared routes become label values: any path an outsider invents shares one series.
    const route = (req.route?.path as string | undefined) ?? 'unmatched';
    httpRequestDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
    if (!req.path.startsWith('/health')) {
      runWithContext({ request_id: id }, () =>
        rootLogger().info({ method: req.method, path: req.path, status: res.statusCode, duration_ms: Math.round(seconds * 1000) }, 'request'),
      );
    }
  });
  runWithContext({ request_id: id }, next);
}

/** Standard security headers for an API that also serves one HTML page (checkout). */
export function securityHeadersMiddleware(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  // The API answers JSON: nothing may load. /docs serves Swagger UI (its own scripts and styles).
  res.setHeader(
    'Content-Security-Policy',
    req.path === '/docs' || req.path.startsWith('/docs/')
      ? "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'"
      : "default-src 'none'; frame-ancestors 'none'",
  );
  res.removeHeader('X-Powered-By');
  next();
}
