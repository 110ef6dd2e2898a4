import type {
  CallbackView,
  ConnectionView,
  InvoiceView,
  LedgerEntryView,
  LinkView,
  RefundView,
  SplitConfigView,
  TransactionView,
} from '@payments/contracts';

import { presentCallback, presentCallbackListItem } from '../callbacks/callbacks.presenter';
import { presentConnection } from '../connections/connection.presenter';
import { presentLinkObject } from '../links/link.presenter';
import * as splits from '../splits/splits.presenter';
import * as tx from '../transactions/transaction.presenter';
import { documentValidator } from './__tests__/document-validator';

/**
 * Every presenter's output, built from fixtures, is valid against the success schema the
 * committed OpenAPI document gives its operation; the schemas are closed, so a field the document
 * lacks fails as surely as a missing or mistyped one.
 */
const BASE = 'https://pay.example.com/checkout';
const at = '2026-01-31T12:00:00.000Z';

const transaction = (over: Partial<TransactionView> = {}): TransactionView => ({
  transaction_id: 'txn_1',
  transaction_reference: 'ref_1',
  amount: 1000,
  charges: 15,
  total: 1015,
  currency: 'USD',
  status: 'pending',
  message: 'Transaction initialized',
  email: 'a@example.com',
  checkout_id: 'chk_1',
  success_url: null,
  failure_url: 'https://shop.example/fail',
  payment_method_type: null,
  payment_method_code: null,
  payment_link_id: null,
  amount_refunded: 0,
  metadata: { order_id: '42' },
  description: null,
  date_created: at,
  date_updated: at,
  ...over,
});
const refund: RefundView = {
  refund_id: 'rfd_1',
  transaction_id: 'txn_1',
  transaction_reference: 'ref_1',
  amount: 500,
  currency: 'USD',
  status: 'pending',
  message: 'Refund pending',
  reason: null,
  metadata: {},
  description: 'damaged',
  date_created: at,
  date_updated: at,
};
const link = (over: Partial<LinkView> = {}): LinkView => ({
  payment_link_id: 'lnk_1',
  amount: 1000,
  charges: 15,
  total: 1015,
  currency: 'USD',
  description: 'Tickets',
  active: true,
  splits: [{ business_id: 2, type: 'percentage', value: 1000 }],
  metadata: { campaign: 'spring' },
  success_url: null,
  failure_url: null,
  date_created: at,
  date_updated: at,
  date_deactivated: null,
  ...over,
});
const callback: CallbackView = {
  id: 7,
  url: 'https://shop.example/hook',
  description: '',
  events: ['payment.completed'],
  is_active: true,
  failure_count: 0,
  last_triggered: null,
  date_created: at,
  date_updated: at,
};
const config: SplitConfigView = {
  public_id: '6f1c1f4e-8a63-4bb8-9d7f-4e1f0c1b2a3d',
  owner_business_id: 1,
  partner_business_id: 2,
  split_type: 'percentage',
  split_value: 250,
  split_role: 'fee',
  currency: 'USD',
  description: null,
  is_active: true,
  date_created: at,
  date_updated: at,
};
const entry: LedgerEntryView = {
  public_id: 'led_1',
  kind: 'split',
  transaction_id: 3,
  transaction_public_id: 'txn_3',
  split_config_id: null,
  creditor_business_id: 2,
  debtor_business_id: 1,
  amount: -25,
  currency: 'USD',
  status: 'pending',
  invoice_reference: null,
  settlement_date: null,
  date_created: at,
};
const invoice: InvoiceView = {
  invoice_reference: 'INV-20260131-1-2-USD-TEST-1',
  debtor_business_id: 1,
  creditor_business_id: 2,
  currency: 'USD',
  amount: 25,
  status: 'paid',
  entry_count: 1,
  period_end: at,
  date_created: at,
  date_paid: at,
  mode: 'test',
};

const connection: ConnectionView = {
  provider: 'paynow',
  mode: 'live',
  account: 'int_…1201',
  methods: ['ecocash', 'innbucks', 'zimswitch'],
  date_created: at,
  date_updated: at,
};

const cases: [string, () => unknown][] = [
  ['TransactionsController_initialize', () => tx.presentInitialized({ ...transaction(), checkout_id: null }, BASE)],
  ['TransactionsController_initialize', () => tx.presentInitialized({ ...transaction(), checkout_id: 'chk_1' }, BASE)],
  ['TransactionsController_verify', () => tx.presentVerified(transaction({ status: 'success', amount_refunded: 500 }))],
  [
    'TransactionsController_list',
    () => ({
      result: 'success',
      transactions: [tx.presentListItem(transaction({ payment_link_id: 'lnk_1' }))],
      has_more: true,
    }),
  ],
  ['TransactionsController_fetch', () => tx.presentTransactionModel(transaction())],
  ['TransactionsController_refund', () => tx.presentRefundCreated(refund)],
  [
    'TransactionsController_listRefunds',
    () => ({ result: 'success', refunds: [tx.presentRefundItem({ ...refund, reason: 'duplicate' })], has_more: false }),
  ],
  ['TransactionsController_getRefund', () => tx.presentRefund({ ...refund, status: 'success' })],
  ['LinksController_create', () => tx.presentLink(link(), BASE)],
  ['LinksController_get', () => ({ result: 'success', ...presentLinkObject(link(), BASE) })],
  [
    'LinksController_list',
    () => ({
      result: 'success',
      links: [presentLinkObject(link({ active: false, date_deactivated: at }), BASE)],
      has_more: false,
    }),
  ],
  ['CallbacksController_get', () => ({ result: 'success', callback: presentCallback(callback) })],
  [
    'CallbacksController_list',
    () => ({
      result: 'success',
      message: '1 callback(s)',
      callbacks: [presentCallbackListItem(callback)],
      total_count: 1,
      has_more: false,
    }),
  ],
  ['SplitsController_create', () => splits.presentSplitConfigCreated(config)],
  ['SplitsController_update', () => splits.presentSplitConfigUpdated({ ...config, description: 'agency fee' })],
  ['SplitsController_list', () => splits.presentSplitConfigList({ split_configs: [config], count: 3, has_more: true })],
  ['SplitsController_deactivate', () => splits.presentSplitConfigDeactivated(config)],
  [
    'SplitsController_entries',
    () =>
      splits.presentLedger(
        [entry, { ...entry, invoice_reference: invoice.invoice_reference, settlement_date: at }],
        2,
        false,
      ),
  ],
  [
    'SplitsController_summary',
    () =>
      splits.presentSummary({
        owed_to_you: [{ currency: 'USD', total: 25 }],
        you_owe: [],
        by_counterparty: [{ business_id: 2, currency: 'USD', owed_to_you: 25, you_owe: 0 }],
      }),
  ],
  ['SplitsController_invoices', () => splits.presentInvoices([invoice], 1, false)],
  [
    'SettlementAdminController_run',
    () => splits.presentSettlementRun({ period_end: at, invoices: [invoice], entries_invoiced: 1 }),
  ],
  ['SettlementAdminController_paid', () => splits.presentInvoicePaid(invoice)],
  [
    'ConnectionsController_put',
    () => ({ result: 'success', ...presentConnection(connection, 'https://pay.example.com') }),
  ],
  [
    'ConnectionsController_get',
    () => ({
      result: 'success',
      ...presentConnection(
        { ...connection, provider: 'dpo', mode: 'test', methods: ['dpo'] },
        'https://pay.example.com',
      ),
    }),
  ],
  [
    'ConnectionsController_list',
    () => ({
      result: 'success',
      connections: [
        presentConnection({ ...connection, provider: 'ozow', methods: ['ozow'] }, 'https://pay.example.com'),
      ],
    }),
  ],
  [
    'ConnectionsController_remove',
    () => ({ result: 'success', provider: 'paynow', message: 'paynow connection removed (live mode)' }),
  ],
];

describe('presenters against the OpenAPI document', () => {
  const doc = documentValidator();

  it.each(cases)('%s: the presenter output matches the documented answer', (operationId, build) => {
    expect(doc.response(operationId, build())).toEqual([]);
  });

  it('rejects a field the document lacks, a missing field and a wrong type (the schemas are closed)', () => {
    const body = tx.presentVerified(transaction());
    expect(doc.response('TransactionsController_verify', { ...body, checkout_id: 'chk_1' })).toEqual([
      '/ must NOT have additional properties: checkout_id',
    ]);
    const { checkoutId: _dropped, ...missing } = body;
    expect(doc.response('TransactionsController_verify', missing)).toEqual([
      "/ must have required property 'checkoutId'",
    ]);
    expect(doc.response('TransactionsController_verify', { ...body, amount: '10.00' })).toEqual([
      '/amount must be integer',
    ]);
  });
});
