import type { RefundStatusChangedData, TransactionStatusChangedData } from './events';
import type { SettlementInvoiceChangedData } from './ledger';

/**
 * Domain-event data for specs that check payloads against their schemas. Test-only: imported as
 * `@payments/contracts/fixtures` by specs, never by the services' code.
 */
export const at = '2026-01-31T12:00:00.000Z';

export const transactionEvent = (
  status: 'pending' | 'success',
  previous: 'pending' | null,
): TransactionStatusChangedData => ({
  status,
  previous_status: previous,
  transaction: {
    id: 3,
    transaction_id: 'txn_1',
    transaction_reference: 'ref_1',
    business_id: 1,
    mode: 'test',
    amount: 1000,
    charges: 15,
    total: 1015,
    currency: 'USD',
    status,
    message: 'ok',
    email: 'a@example.com',
    payment_method_type: 'card',
    payment_method_code: null,
    checkout_id: 'chk_1',
    payment_link_id: null,
    link_splits: [],
    version: 1,
    date_created: at,
    date_updated: at,
  },
});
export const refundEvent = (status: 'pending' | 'failed'): RefundStatusChangedData => ({
  status,
  previous_status: status === 'pending' ? null : 'pending',
  refund: {
    id: 4,
    refund_id: 'rfd_1',
    business_id: 1,
    mode: 'test',
    amount: 500,
    currency: 'USD',
    status,
    message: 'Refund',
    reason: 'duplicate',
    transaction: { id: 3, transaction_id: 'txn_1', transaction_reference: 'ref_1', amount: 1000 },
    version: 1,
    date_created: at,
    date_updated: at,
  },
});
export const invoiceEvent = (status: 'issued' | 'paid'): SettlementInvoiceChangedData => ({
  status,
  previous_status: status === 'paid' ? 'issued' : null,
  invoice: {
    invoice_reference: 'INV-20260131-1-2-USD-TEST-1',
    debtor_business_id: 1,
    creditor_business_id: 2,
    currency: 'USD',
    amount: 25,
    status,
    entry_count: 1,
    period_end: at,
    date_created: at,
    date_paid: status === 'paid' ? at : null,
  },
});
