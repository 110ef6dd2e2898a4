import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { ErrorCodes } from '@payments/contracts';
import { randomBase62 } from '@payments/platform';
import { sendError } from './error-body';
import { checkJsonBytes, checkRequestTarget, checkUrlEncoded, checkUtf8, findBadText, type InputProblem } from './input-guard';

/** Thrown by the body parsers' verify hooks; the body-parser error handler renders it. */
export class InputRejected extends Error {
  readonly type = 'input.rejected';
  constructor(readonly problem: InputProblem) {
    super(problem.message);
  }
}

export function sendInputProblem(req: Request, res: Response, problem: InputProblem): void {
  const code = problem.status === 413 ? ErrorCodes.PayloadTooLarge : ErrorCodes.ValidationError;
  const errors = problem.field ? [{ field: problem.field, message: problem.message }] : undefined;
  sendError(res, problem.status, { code, message: problem.message, errors, request_id: req.requestId });
}

/** Path and query string: checked before any body is read. */
export function requestTargetGuard(req: Request, res: Response, next: NextFunction): void {
  const problem = checkRequestTarget(req.originalUrl);
  if (problem) return sendInputProblem(req, res, problem);
  next();
}

/** `verify` hook of the JSON parser: sees the raw bytes before they are decoded and parsed. */
export function verifyJsonBody(_req: unknown, _res: unknown, buf: Buffer): void {
  const problem = checkJsonBytes(buf);
  if (problem) throw new InputRejected(problem);
}

/** `verify` hook of the form parser (the checkout page's posts). */
export function verifyFormBody(_req: unknown, _res: unknown, buf: Buffer): void {
  const problem = checkUtf8(buf) ?? checkUrlEncoded(buf.toString('utf8'), 'request body');
  if (problem) throw new InputRejected(problem);
}

/** Parsed bodies: every key and string value is clean text. */
export function bodyTextGuard(req: Request, res: Response, next: NextFunction): void {
  const problem = findBadText(req.body);
  if (problem) return sendInputProblem(req, res, problem);
  next();
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 413: 'Payload Too Large' };

/**
 * Requests Node's HTTP parser refuses before any middleware runs (a request line or headers
 * above its limit, malformed HTTP) get the API's error body instead of Node's bare 431/400.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A peer that went away cannot be answered (Node's own handler does the same).
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 413 : 400;
    const requestId = `req_${randomBase62(20)}`;
    const body = JSON.stringify({
      result: 'error',
      code: tooLarge ? ErrorCodes.PayloadTooLarge : ErrorCodes.ValidationError,
      message: tooLarge ? 'the request line or headers are too large (query string included)' : 'the request is not valid HTTP',
      request_id: requestId,
    });
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
