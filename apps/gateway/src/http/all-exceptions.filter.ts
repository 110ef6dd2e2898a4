import { ArgumentsHost, Catch, HttpException, HttpStatus, type ExceptionFilter } from '@nestjs/common';
import { ErrorCodes, type ErrorCode } from '@payments/contracts';
import { rootLogger } from '@payments/platform';
import { ApiException, storeErrorAnswer } from './api-exception';
import { BodyUnreadable } from './body-parsers';
import { sendError } from './error-body';
import { IdempotentReplay } from './idempotency';
import { requestPath, type ApiReply, type ApiRequest } from './http-types';
import { InputRejected, sendInputProblem } from './input-rejection';

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
    const req = http.getRequest<ApiRequest>();
    const res = http.getResponse<ApiReply>();
    const requestId = req.requestId || 'unknown';
    const path = requestPath(req);

    if (exception instanceof InputRejected) return sendInputProblem(req, res, exception.problem);
    const bodyProblem = bodyParserError(exception);
    if (bodyProblem) return sendError(res, bodyProblem.status, { ...bodyProblem, request_id: requestId });

    if (exception instanceof IdempotentReplay) {
      res.header('Idempotent-Replayed', 'true').code(exception.status).send(exception.body);
      return;
    }
    if (exception instanceof ApiException) {
      // The idempotency layer releases the key of a request that certainly never ran.
      if (exception.notExecuted) req.notExecuted = true;
      if (exception.rerunAfter !== undefined) req.rerunAfter = exception.rerunAfter;
      return sendError(
        res,
        exception.status,
        { code: exception.code, message: exception.message, errors: exception.errors, request_id: requestId },
        exception.headers,
      );
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = BY_STATUS[status];
      if (code) {
        const message = status === 404 ? `no route ${req.method} ${path}` : exception.message;
        return sendError(res, status, { code, message, request_id: requestId });
      }
    }
    const storeAnswer = storeErrorAnswer(exception);
    if (storeAnswer) {
      if (storeAnswer.notExecuted) req.notExecuted = true;
      if (storeAnswer.status === 400) {
        // PostgreSQL refused a value validation let through: the statement failed, nothing changed.
        rootLogger().warn(
          { request_id: requestId, path, sqlstate: (exception as { code?: string }).code },
          'input refused by the database',
        );
      } else {
        rootLogger().error(
          { err: exception, request_id: requestId, path },
          storeAnswer.notExecuted ? 'a store is unreachable' : 'store connection lost mid-write; outcome unknown',
        );
      }
      return sendError(res, storeAnswer.status, {
        code: storeAnswer.code,
        message: storeAnswer.message,
        request_id: requestId,
      });
    }
    rootLogger().error({ err: exception, request_id: requestId, path }, 'unhandled error');
    sendError(res, 500, {
      code: ErrorCodes.InternalError,
      message: `internal error; quote request id ${requestId} to support`,
      request_id: requestId,
    });
  }
}

/**
 * Errors raised while the body is read, before Nest routing. Nest turns Fastify's own errors into
 * HttpExceptions with their status; the only 413 among them is a body over BODY_LIMIT.
 */
function bodyParserError(err: unknown): { status: number; code: ErrorCode; message: string } | undefined {
  if ((err instanceof BodyUnreadable && err.tooLarge) || (err instanceof HttpException && err.getStatus() === 413)) {
    return { status: 413, code: ErrorCodes.PayloadTooLarge, message: 'request body is larger than 64 KiB' };
  }
  if (err instanceof BodyUnreadable)
    return { status: 400, code: ErrorCodes.ValidationError, message: 'request body is not valid JSON' };
  return undefined;
}
