import {
  EVENT_CATALOGUE,
  PING_EVENT,
  payoutPayload,
  pingPayload,
  refundPayload,
  transactionPayload,
  type RefundStatusChangedData,
  type SettlementInvoiceChangedData,
  type TransactionStatusChangedData,
} from '@payments/contracts';
import { documentValidator } from './__tests__/document-validator';

/**
 * The payload builders webhook-dispatcher sends (and the events API answers) produce, from
 * fixtures, bodies valid against the committed document's `webhooks` entry of their event type;
 * the schemas are closed, so a field the document lacks fails.
 */
const at = '2026-01-31T12:00:00.000Z';
const transactionEvent = (status: 'pending' | 'success', previous: 'pending' | null): TransactionStatusChangedData => ({
  status,
  previous_status: previous,
  transaction: {
    id: 3, transaction_id: 'txn_1', transaction_reference: 'ref_1', business_id: 1, mode: 'test', amount: 1000, charges: 15, total: 1015,
    currency: 'USD', status, message: 'ok', email: 'a@example.com', payment_method_type: 'card', payment_method_code: null, checkout_id: 'chk_1',
    payment_link_id: null, link_splits: [], version: 1, date_created: at, date_updated: at,
  },
});
const refundEvent = (status: 'pending' | 'failed'): RefundStatusChangedData => ({
  status,
  previous_status: status === 'pending' ? null : 'pending',
  refund: {
    id: 4, refund_id: 'rfd_1', business_id: 1, mode: 'test', amount: 500, currency: 'USD', status, message: 'Refund', reason: 'duplicate',
    transaction: { id: 3, transaction_id: 'txn_1', transaction_reference: 'ref_1', amount: 1000 }, version: 1, date_created: at, date_updated: at,
  },
});
const invoiceEvent = (status: 'issued' | 'paid'): SettlementInvoiceChangedData => ({
  status,
  previous_status: status === 'paid' ? 'issued' : null,
  invoice: {
    invoice_reference: 'INV-20260131-1-2-USD-TEST-1', debtor_business_id: 1, creditor_business_id: 2, currency: 'USD', amount: 25, status,
    entry_count: 1, period_end: at, date_created: at, date_paid: status === 'paid' ? at : null,
  },
});

const event = (type: string, data: unknown) => ({ id: 'evt_AbCdEfGhIjKlMnOpQrStUvWx', event: type, created_at: at, mode: 'test', data });

describe('webhook payloads against the OpenAPI document', () => {
  const doc = documentValidator();

  it('documents every event type the dispatcher sends, and only those', () => {
    expect(doc.webhookTypes()).toEqual([...EVENT_CATALOGUE, PING_EVENT]);
  });

  const cases: [string, unknown][] = [
    ...['payment.created', 'transaction.pending'].map((t): [string, unknown] => [t, transactionPayload(transactionEvent('pending', null))]),
    ...['payment.updated', 'payment.completed', 'transaction.success'].map((t): [string, unknown] => [t, transactionPayload(transactionEvent('success', 'pending'))]),
    ['refund.pending', refundPayload(refundEvent('pending'))],
    ['refund.failed', refundPayload(refundEvent('failed'))],
    ['payout.created', payoutPayload(invoiceEvent('issued'))],
    ['payout.completed', payoutPayload(invoiceEvent('paid'))],
    [PING_EVENT, pingPayload(7)],
  ];

  it.each(cases)('%s: the built body matches the documented one', (type, data) => {
    expect(doc.webhook(type, event(type, data))).toEqual([]);
  });

  it('fails a payload with a field the document lacks, or sent under another event type', () => {
    const data = refundPayload(refundEvent('pending'));
    expect(doc.webhook('refund.pending', event('refund.pending', { ...data, checkoutId: null }))).toContain('/data must NOT have additional properties: checkoutId');
    expect(doc.webhook('payment.created', event('refund.pending', data))).not.toEqual([]);
  });
});
