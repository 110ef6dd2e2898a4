import type { DashboardApi, RefundView, TransactionView } from '@payments/contracts';

/** A payment as the dashboard shows it: amounts in minor units (the page formats them). */
export type PaymentItem = DashboardApi.PaymentItem;
export type RefundItem = DashboardApi.RefundItem;

export function presentPayment(t: TransactionView): PaymentItem {
  return {
    transaction_id: t.transaction_id,
    reference: t.transaction_reference,
    amount: t.amount,
    charges: t.charges,
    total: t.total,
    amount_refunded: t.amount_refunded,
    currency: t.currency,
    status: t.status,
    email: t.email,
    payment_method_type: t.payment_method_type,
    payment_method_code: t.payment_method_code,
    payment_link_id: t.payment_link_id,
    description: t.description,
    date_created: t.date_created,
    date_updated: t.date_updated,
  };
}

export function presentRefund(r: RefundView): RefundItem {
  return {
    refund_id: r.refund_id,
    amount: r.amount,
    currency: r.currency,
    status: r.status,
    reason: r.reason,
    date_created: r.date_created,
    date_updated: r.date_updated,
  };
}

/** What is left to refund: the amount less every refund that has not failed (the service's own rule). */
export function refundable(t: TransactionView, refunds: RefundView[]): number {
  if (t.status !== 'success') return 0;
  return Math.max(0, t.amount - refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0));
}

const CSV_COLUMNS = [
  'transaction_id',
  'reference',
  'status',
  'amount',
  'charges',
  'total',
  'amount_refunded',
  'currency',
  'email',
  'payment_method_code',
  'date_created',
] as const;

/** One CSV field: quoted when needed; a leading = + - @ is defused so spreadsheets do not run it as a formula. */
function field(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`;

export function csvRow(p: PaymentItem): string {
  return `${CSV_COLUMNS.map((c) => field(p[c])).join(',')}\r\n`;
}
