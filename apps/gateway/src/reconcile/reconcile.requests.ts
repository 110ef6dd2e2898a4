import type { Static } from '@payments/contracts/schemas';
import { integerInRange } from '../http/request-fields';
import { arrayMaxSize, each, isArray, matches } from '../http/request-rules';
import { optional, required, requestBody, requestQuery } from '../http/request-schema';

export const RECONCILE_PAGE_MAX = 1_000;

export const ReconcilePageQuery = requestQuery('ReconcilePageQuery', {
  after: optional([matches(/^[A-Za-z0-9_-]{1,64}$/, 'after must be the next cursor of a previous page')]),
  limit: integerInRange('limit', 1, RECONCILE_PAGE_MAX, { fromQuery: true }),
});
export type ReconcilePageQuery = Static<typeof ReconcilePageQuery>;

const ids = (field: string, pattern: RegExp) => {
  const message = `${field} must be an array of transaction ids`;
  return required([
    each(matches(pattern, message)),
    arrayMaxSize(RECONCILE_PAGE_MAX, `${field} may hold at most ${RECONCILE_PAGE_MAX} ids`),
    isArray(message),
  ]);
};

export const ReconcileIdsDto = requestBody('ReconcileIdsDto', { ids: ids('ids', /^\d{1,18}$/) });
export type ReconcileIdsDto = Static<typeof ReconcileIdsDto>;

export const ReconcileTransactionIdsDto = requestBody('ReconcileTransactionIdsDto', {
  transaction_ids: ids('transaction_ids', /^[A-Za-z0-9_-]{1,64}$/),
});
export type ReconcileTransactionIdsDto = Static<typeof ReconcileTransactionIdsDto>;
