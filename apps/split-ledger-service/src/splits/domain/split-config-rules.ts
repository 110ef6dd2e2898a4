import { SPLIT_DESCRIPTION_MAX, SPLIT_ROLES, SPLIT_TYPES, type FieldError } from '@payments/contracts';
import { BPS_WHOLE, isSupportedCurrency } from '@payments/money';

/** A split config's terms as they would be after a create or an update. */
export interface SplitConfigTerms {
  ownerBusinessId: number;
  partnerBusinessId: number;
  type: unknown;
  value: unknown;
  role: unknown;
  currency: unknown;
  description: unknown;
}

/**
 * The rules a split config obeys, one problem per field. The gateway checks the same on the
 * request; this is the service's own guard, and the only place that sees an update merged with
 * what it changes (e.g. split_type → percentage with a split_value above 10 000).
 */
export function splitConfigProblems(t: SplitConfigTerms): FieldError[] {
  const problems: FieldError[] = [];
  if (!Number.isInteger(t.partnerBusinessId) || t.partnerBusinessId < 1) {
    problems.push({ field: 'partner_business_id', message: 'must be an existing business' });
  } else if (t.partnerBusinessId === t.ownerBusinessId) {
    problems.push({ field: 'partner_business_id', message: 'must be a business other than your own' });
  }
  if (!SPLIT_TYPES.includes(t.type as never))
    problems.push({ field: 'split_type', message: `must be one of ${SPLIT_TYPES.join(', ')}` });
  if (!Number.isSafeInteger(t.value) || (t.value as number) < 1) {
    problems.push({ field: 'split_value', message: 'must be a positive integer' });
  } else if (t.type === 'percentage' && (t.value as number) > BPS_WHOLE) {
    problems.push({
      field: 'split_value',
      message: `must be at most ${BPS_WHOLE} basis points for a percentage split`,
    });
  }
  if (!SPLIT_ROLES.includes(t.role as never))
    problems.push({ field: 'split_role', message: `must be one of ${SPLIT_ROLES.join(', ')}` });
  if (!isSupportedCurrency(t.currency))
    problems.push({ field: 'currency', message: 'must be a supported ISO 4217 currency code' });
  if (
    t.description !== null &&
    t.description !== undefined &&
    (typeof t.description !== 'string' || t.description.length > SPLIT_DESCRIPTION_MAX)
  ) {
    problems.push({ field: 'description', message: `must be a string of at most ${SPLIT_DESCRIPTION_MAX} characters` });
  }
  return problems;
}
