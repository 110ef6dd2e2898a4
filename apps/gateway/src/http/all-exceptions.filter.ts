import { ArgumentsHost, Catch, HttpException, HttpStatus, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorCodes, type ErrorCode } from '@payments/contracts';
import { isConnectionError, isDataError } from '@payments/database';
import { rootLogger } from '@payments/platform';
import { ApiException } from './api-exception';
import { sendError } from './error-body';
import { InputRejected, sendInputProblem } from './input-guard.middleware';

const BY_STATUS: Record<number, ErrorCode> = {
  [HttpStatus.BAD_REQUEST]: ErrorCodes.ValidationError,
  [HttpStatus.UNAUTHORIZED]: ErrorCodes.InvalidApiKey,
  [HttpStatus.FORBIDDEN]: ErrorCodes.SecretKeyRequired,
  [HttpStatus.NOT_FOUND]: ErrorCodes.NotFound,
  [HttpStatus.PAYLOAD_TOO_LARGE]: ErrorCodes.PayloadTooLarge,
  [HttpStatus.TOO_MANY_REQUESTS]: ErrorCodes.RateLimited,
  [HttpStatus.SERVICE_UNAVAILABLE]: ErrorCodes.ServiceUnavailable,
};

/** The one place errors become the public error body. A 500 reveals only the request id. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const requestId = req.requestId ?? 'unknown';

    if (exception instanceof ApiException) {
      return sendError(res, exception.status, { code: exception.code, message: exception.message, errors: exception.errors, request_id: requestId }, exception.headers);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = BY_STATUS[status];
      if (code) {
        const message = status === 404 ? `no route ${req.method} ${req.path}` : exception.message;
        return sendError(res, status, { code, message, request_id: requestId });
      }
    }
    if (isConnectionError(exception)) {
      rootLogger().error({ err: exception, request_id: requestId, path: req.path }, 'a store is unreachable');
      return sendError(res, 503, { code: ErrorCodes.ServiceUnavailable, message: 'a data store is unreachable; try again shortly', request_id: requestId });
    }
    if (isDataError(exception)) {
      // PostgreSQL refused a value validation let through: the statement failed, nothing changed.
      rootLogger().warn({ request_id: requestId, path: req.path, sqlstate: (exception as { code?: string }).code }, 'input refused by the database');
      return sendError(res, 400, { code: ErrorCodes.ValidationError, message: 'a value in the request is outside what can be stored (out of range, impossible date or invalid text)', request_id: requestId });
    }
    rootLogger().error({ err: exception, request_id: requestId, path: req.path }, 'unhandled error');
    sendError(res, 500, { code: ErrorCodes.InternalError, message: `internal error; quote request id ${requestId} to support`, request_id: requestId });
  }
}

/** Express-level errors raised before Nest routing (body parser): too large, malformed JSON. */
export function bodyParserErrorHandler(err: { type?: string; status?: number; message?: string }, req: Request, res: Response, next: (e?: unknown) => void): void {
  if (err instanceof InputRejected) return sendInputProblem(req, res, err.problem);
  if (err?.type === 'entity.too.large') {
    return sendError(res, 413, { code: ErrorCodes.PayloadTooLarge, message: 'request body is larger than 64 KiB', request_id: req.requestId });
  }
  if (err?.type === 'entity.parse.failed' || err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') {
    return sendError(res, 400, { code: ErrorCodes.ValidationError, message: 'request body is not valid JSON', request_id: req.requestId });
  }
  next(err);
}
