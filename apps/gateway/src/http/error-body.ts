import type { Response } from 'express';
import type { ErrorCode, FieldError } from '@payments/contracts';

export interface ErrorBody {
  result: 'error';
  code: ErrorCode;
  message: string;
  errors?: FieldError[];
  request_id: string;
}

export function sendError(res: Response, status: number, body: Omit<ErrorBody, 'result'>, headers: Record<string, string> = {}): void {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  const out: ErrorBody = { result: 'error', code: body.code, message: body.message, request_id: body.request_id };
  if (body.errors && body.errors.length > 0) out.errors = body.errors;
  res.status(status).json(out);
}
