import {
  annotationsOf,
  type InitializeTransactionResult,
  type LinkView,
  type RefundView,
  type TransactionView,
} from '@payments/contracts';
import { toMajorNumber, toMajorString } from '@payments/money';
import type {
  InitializedTransaction,
  LinkCreated,
  RefundAnswer,
  RefundCreated,
  RefundItem,
  TransactionListItem,
  TransactionModel,
  VerifiedTransaction,
} from './transaction.responses';

/** `{CHECKOUT_URL}?checkout_id=…`: the hosted page of a transaction or a payment link. */
export function checkoutUrl(base: string, checkoutId: string): string {
  return `${base}?checkout_id=${encodeURIComponent(checkoutId)}`;
}

/** The spec's public shapes for transactions; every transaction response is built here. */
export function presentInitialized(r: InitializeTransactionResult, checkoutBaseUrl: string): InitializedTransaction {
  const body: InitializedTransaction = {
    result: 'success',
    transaction_id: r.transaction_id,
    transaction_reference: r.transaction_reference,
    message: r.message,
    total: toMajorNumber(r.total, r.currency),
    ...annotationsOf(r),
  };
  if (r.checkout_id) body.checkout_url = checkoutUrl(checkoutBaseUrl, r.checkout_id);
  if (r.authorization_url) body.authorization_url = r.authorization_url;
  if (r.authorization_code) body.authorization_code = r.authorization_code;
  if (r.authorization_expires) body.authorization_expires = r.authorization_expires;
  if (r.instructions) body.instructions = r.instructions;
  return body;
}

/** verify: the Transaction model with snake-case ids, integer amounts, ISO-8601 dateCreated. */
export function presentVerified(t: TransactionView): VerifiedTransaction {
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
    amount_refunded: t.amount_refunded,
    ...annotationsOf(t),
  };
}

/** list item: amount as an exact decimal string in major units; `details` holds the rest (docs/api.md). */
export function presentListItem(t: TransactionView): TransactionListItem {
  return {
    transaction_id: t.transaction_id,
    amount: toMajorString(t.amount, t.currency),
    currency: t.currency,
    status: t.status,
    message: t.message,
    ...annotationsOf(t),
    details: {
      transaction_reference: t.transaction_reference,
      charges: toMajorString(t.charges, t.currency),
      total: toMajorString(t.total, t.currency),
      email: t.email,
      payment_method_type: t.payment_method_type,
      payment_method_code: t.payment_method_code,
      payment_link_id: t.payment_link_id,
      amount_refunded: t.amount_refunded,
      date_created: t.date_created,
      date_updated: t.date_updated,
    },
  };
}

/** fetch: the spec's Transaction model, field for field. */
export function presentTransactionModel(t: TransactionView): TransactionModel {
  return {
    result: 'success',
    transactionId: t.transaction_id,
    transactionReference: t.transaction_reference,
    amount: t.amount,
    charges: t.charges,
    total: t.total,
    currency: t.currency,
    emailAddress: t.email,
    status: t.status,
    checkoutId: t.checkout_id,
    successUrl: t.success_url,
    failureUrl: t.failure_url,
    dateCreated: t.date_created,
    amount_refunded: t.amount_refunded,
    ...annotationsOf(t),
  };
}

export function presentRefundCreated(r: RefundView): RefundCreated {
  return {
    result: 'success',
    message:
      `Refund of ${toMajorString(r.amount, r.currency)} ${r.currency} ` +
      `for ${r.transaction_reference} is being processed`,
    refund_id: r.refund_id,
    status: r.status,
    amount: r.amount,
    reason: r.reason,
    ...annotationsOf(r),
  };
}

/** A refund in GET /v1/transactions/refunds: the single refund's fields, without the envelope. */
export function presentRefundItem(r: RefundView): RefundItem {
  return {
    refund_id: r.refund_id,
    status: r.status,
    amount: r.amount,
    currency: r.currency,
    transaction_id: r.transaction_id,
    transaction_reference: r.transaction_reference,
    message: r.message,
    reason: r.reason,
    ...annotationsOf(r),
    date_created: r.date_created,
    date_updated: r.date_updated,
  };
}

export function presentRefund(r: RefundView): RefundAnswer {
  return { result: 'success', ...presentRefundItem(r) };
}

export function presentLink(l: LinkView, checkoutBaseUrl: string): LinkCreated {
  const money = (v: number) => `${toMajorString(v, l.currency)} ${l.currency}`;
  return {
    result: 'success',
    payment_link_id: l.payment_link_id,
    hosted_payment_link: checkoutUrl(checkoutBaseUrl, l.payment_link_id),
    message: `Payment link created: amount ${money(l.amount)}, charges ${money(l.charges)}, total ${money(l.total)}`,
    description: l.description,
    metadata: l.metadata ?? {},
  };
}
