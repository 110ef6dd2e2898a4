import { Type, type Static } from '@sinclair/typebox';
import type { ListTransactionsBody } from '@payments/contracts';
import { PAYMENT_METHOD_CODES } from '@payments/domain';
import { ErrorCodes } from '@payments/contracts';
import { ApiException } from '../http/api-exception';
import { bodyChecker } from './http/typebox-body';

const DAY = { pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', message: 'must be a date, YYYY-MM-DD' };
const TXN = { pattern: '^txn_[0-9A-Za-z]{1,64}$', message: 'must be a transaction id (txn_…)' };

/** The payments list's filters, as the query string carries them (all text). */
export const PaymentsQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(['pending', 'processing', 'success', 'failed'].map((s) => Type.Literal(s)), { message: 'must be pending, processing, success or failed' })),
    method: Type.Optional(Type.Union(PAYMENT_METHOD_CODES.map((c) => Type.Literal(c)), { message: `must be one of ${PAYMENT_METHOD_CODES.join(', ')}` })),
    from: Type.Optional(Type.String(DAY)),
    to: Type.Optional(Type.String(DAY)),
    /** A reference (exact), or an e-mail address (any case) when it holds an @. */
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 254, message: 'must be a reference or an e-mail address' })),
    limit: Type.Optional(Type.String({ pattern: '^([1-9]|[1-9]\\d|100)$', message: 'must be an integer from 1 to 100' })),
    starting_after: Type.Optional(Type.String(TXN)),
    ending_before: Type.Optional(Type.String(TXN)),
  },
  { additionalProperties: false },
);
export type PaymentsQuery = Static<typeof PaymentsQuery>;

const checkQuery = bodyChecker(PaymentsQuery);

/** The transactions.list body of the query: the same RPC (and rules) as GET /v1/transactions/list. */
export function listBody(raw: unknown, defaultLimit: number): ListTransactionsBody {
  const q = checkQuery(raw ?? {});
  if (q.starting_after && q.ending_before) {
    throw new ApiException(ErrorCodes.ValidationError, 'give starting_after or ending_before, not both', [{ field: 'ending_before', message: 'cannot be given with starting_after' }]);
  }
  if (q.from && q.to && q.to < q.from) throw new ApiException(ErrorCodes.ValidationError, 'to must not be before from', [{ field: 'to', message: 'must not be before from' }]);
  const search = q.q?.trim();
  return {
    limit: q.limit ? Number(q.limit) : defaultLimit,
    starting_after: q.starting_after,
    ending_before: q.ending_before,
    status: q.status as ListTransactionsBody['status'],
    payment_method_code: q.method,
    start_date: q.from,
    end_date: q.to,
    ...(search ? (search.includes('@') ? { email: search } : { reference: search }) : {}),
  };
}
