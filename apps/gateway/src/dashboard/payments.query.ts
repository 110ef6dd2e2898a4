import type { ListTransactionsBody } from '@payments/contracts';
import { ErrorCodes } from '@payments/contracts';
import { ApiException } from '../http/api-exception';
import { validateRequest } from '../http/request-validation';
import { PaymentsQuery } from './dashboard.requests';

/** The transactions.list body of the query: the same RPC (and rules) as GET /v1/transactions/list. */
export function listBody(query: unknown, defaultLimit: number): ListTransactionsBody {
  const q = validateRequest(PaymentsQuery, query ?? {});
  if (q.starting_after && q.ending_before) {
    throw new ApiException(ErrorCodes.ValidationError, 'give starting_after or ending_before, not both', [
      { field: 'ending_before', message: 'cannot be given with starting_after' },
    ]);
  }
  if (q.from && q.to && q.to < q.from)
    throw new ApiException(ErrorCodes.ValidationError, 'to must not be before from', [
      { field: 'to', message: 'must not be before from' },
    ]);
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
