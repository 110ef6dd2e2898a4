import { annotationsOf } from './annotations';
import type { RefundStatusChangedData, TransactionStatusChangedData } from './events';
import type { SettlementInvoiceChangedData } from './ledger';
import type { PayoutEventData, PingEventData, RefundEventData, TransactionEventData } from './webhook-payloads';

/**
 * The `data` of each webhook event type, built from the domain events. The return types are the
 * schemas of the OpenAPI document's `webhooks` (./webhook-payloads): a field added
 * or renamed here without the schema fails the compiler.
 */
export function transactionPayload(data: TransactionStatusChangedData): TransactionEventData {
  const t = data.transaction;
  return {
    transaction_id: t.transaction_id,
    transaction_reference: t.transaction_reference,
    amount: t.amount,
    charges: t.charges,
    total: t.total,
    currency: t.currency,
    status: t.status,
    previous_status: data.previous_status,
    message: t.message,
    emailAddress: t.email,
    payment_method_type: t.payment_method_type,
    payment_method_code: t.payment_method_code,
    dateCreated: t.date_created,
    ...annotationsOf(t),
  };
}

export function refundPayload(data: RefundStatusChangedData): RefundEventData {
  const r = data.refund;
  return {
    refund_id: r.refund_id,
    transaction_id: r.transaction.transaction_id,
    transaction_reference: r.transaction.transaction_reference,
    amount: r.amount,
    currency: r.currency,
    status: r.status,
    previous_status: data.previous_status,
    message: r.message,
    reason: r.reason ?? null,
    ...annotationsOf(r),
    date_created: r.date_created,
  };
}

export function payoutPayload(data: SettlementInvoiceChangedData): PayoutEventData {
  const i = data.invoice;
  return {
    invoice_reference: i.invoice_reference,
    debtor_business_id: i.debtor_business_id,
    creditor_business_id: i.creditor_business_id,
    currency: i.currency,
    amount: i.amount,
    status: data.status,
    entry_count: i.entry_count,
    period_end: i.period_end,
    date_created: i.date_created,
    date_paid: i.date_paid,
  };
}

export function pingPayload(callbackId: number): PingEventData {
  return { callback_id: callbackId, message: 'Test webhook: your endpoint is reachable and can verify our signature.' };
}
