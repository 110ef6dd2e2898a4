import { ErrorCodes } from '@payments/contracts';
import { Closed, List, Str, StringEnum, Type, type Static } from '@payments/contracts/schemas';
import type { ApiReply } from './http-types';

/** The error model of every failure (docs/api.md, Errors): the type sendError writes and the document's ErrorBody. */
export const ErrorBody = Type.Object(
  {
    result: Type.Literal('error'),
    code: StringEnum(Object.values(ErrorCodes)),
    message: Str(),
    errors: Type.Optional(List(Closed({ field: Str(), message: Str() }))),
    request_id: Str('Also sent as the X-Request-Id header'),
  },
  { additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBody>;

export function sendError(
  reply: ApiReply,
  status: number,
  body: Omit<ErrorBody, 'result'>,
  headers: Record<string, string> = {},
): void {
  const out: ErrorBody = { result: 'error', code: body.code, message: body.message, request_id: body.request_id };
  if (body.errors && body.errors.length > 0) out.errors = body.errors;
  reply.headers(headers).code(status).type('application/json; charset=utf-8').send(JSON.stringify(out));
}
