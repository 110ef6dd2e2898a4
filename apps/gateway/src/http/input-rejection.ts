import type { Socket } from 'node:net';
import { ErrorCodes } from '@payments/contracts';
import { randomBase62 } from '@payments/platform';
import { sendError } from './error-body';
import type { ApiReply, ApiRequest } from './http-types';
import type { InputProblem } from './input-guard';

/** Thrown by the body parsers (body-parsers.ts); the exception filter renders it. */
export class InputRejected extends Error {
  constructor(readonly problem: InputProblem) {
    super(problem.message);
  }
}

export function sendInputProblem(req: ApiRequest, reply: ApiReply, problem: InputProblem): void {
  const code = problem.status === 413 ? ErrorCodes.PayloadTooLarge : ErrorCodes.ValidationError;
  const errors = problem.field ? [{ field: problem.field, message: problem.message }] : undefined;
  sendError(reply, problem.status, { code, message: problem.message, errors, request_id: req.requestId });
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 413: 'Payload Too Large' };

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before any hook runs (a
 * request line or headers above its limit, malformed HTTP) get the API's error body instead of a
 * bare 431/400.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A peer that went away cannot be answered (Node's own handler does the same).
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 413 : 400;
  const requestId = `req_${randomBase62(20)}`;
  const body = JSON.stringify({
    result: 'error',
    code: tooLarge ? ErrorCodes.PayloadTooLarge : ErrorCodes.ValidationError,
    message: tooLarge
      ? 'the request line or headers are too large (query string included)'
      : 'the request is not valid HTTP',
    request_id: requestId,
  });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
