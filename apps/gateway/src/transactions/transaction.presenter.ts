import type { InitializeTransactionResult, TransactionView } from '@payments/contracts';
import { toMajorNumber } from '@payments/money';

/** `{CHECKOUT_URL}?checkout_id=…`: the hosted page of a transaction or a payment link. */
export function checkoutUrl(base: string, checkoutId: string): string {
  return `${base}?checkout_id=${encodeURIComponent(checkoutId)}`;
}

/** The spec's public shapes for transactions; every transaction response is built here. */
export function presentInitialized(r: InitializeTransactionResult, checkoutBaseUrl: string) {
  const body: Record<string, unknown> = {
    result: 'success',
    transaction_id: r.transaction_id,
    transaction_reference: r.transaction_reference,
    message: r.message,
    total: toMajorNumber(r.total, r.currency),
  };
  if (r.checkout_id) body.checkout_url = checkoutUrl(checkoutBaseUrl, r.checkout_id);
  return body;
}

/** verify: the Transaction model with snake-case ids, integer amounts, ISO-8601 dateCreated. */
export function presentVerified(t: TransactionView) {
  return {
    result: 'success',
    transaction_id: t.transaction_id,
    transaction_reference: t.transaction_reference,
    amount: t.amount,
    charges: t.charges,
    total: t.total,
    currency: t.currency,
    status: t.status,
    emailAddress: t.email,
    checkoutId: t.checkout_id,
    successUrl: t.success_url,
    failureUrl: t.failure_url,
    dateCreated: t.date_created,
  };
}
