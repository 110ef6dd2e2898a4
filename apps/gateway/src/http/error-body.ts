import type { ErrorCode, FieldError } from '@payments/contracts';
import type { ApiReply } from './http-types';

export interface ErrorBody {
  result: 'error';
  code: ErrorCode;
  message: string;
  errors?: FieldError[];
  request_id: string;
}

export function sendError(reply: ApiReply, status: number, body: Omit<ErrorBody, 'result'>, headers: Record<string, string> = {}): void {
  const out: ErrorBody = { result: 'error', code: body.code, message: body.message, request_id: body.request_id };
  if (body.errors && body.errors.length > 0) out.errors = body.errors;
  reply.headers(headers).code(status).type('application/json; charset=utf-8').send(JSON.stringify(out));
}
