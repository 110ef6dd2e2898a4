import type { Static } from '@payments/contracts/schemas';
import { isString, maxLength } from '../http/request-rules';
import { optional, requestBody } from '../http/request-schema';

/** POST /admin/v1/refunds/{refund_id}/complete and /fail body: the operator's note. */
export const ResolveRefundDto = requestBody('ResolveRefundDto', {
  note: optional([maxLength(500, 'note must be at most 500 characters'), isString('note must be a string')]),
});
export type ResolveRefundDto = Static<typeof ResolveRefundDto>;
