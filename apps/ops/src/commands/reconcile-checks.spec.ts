import type {
  ReconcileLedgerTransaction,
  ReconcileTransaction,
  ReconcileWebhookEvent,
  ReconcileCallback,
} from '@payments/contracts';
import { deliveryDifferences, transactionDifferences } from './reconcile-checks';

describe('transactionDifferences', () => {
  const txn: ReconcileTransaction = {
    id: '7',
    transaction_id: 'txn_7',
    business_id: 1,
    mode: 'test',
    amount: 1_001,
    status: 'success',
    refunds: [
      { id: '1', amount: 300, status: 'success' },
      { id: '2', amount: 300, status: 'success' },
      { id: '3', amount: 50, status: 'failed' },
    ],
    updated_at: '2026-03-10T12:00:00.000Z',
  };
  // Entry 33 of 1 001 with 600 refunded: floor(33 × 600 / 1 001) = 19.
  const ledger: ReconcileLedgerTransaction = {
    id: '7',
    status: 'success',
    amount: 1_001,
    refunds: [
      { id: '1', amount: 300, status: 'success' },
      { id: '2', amount: 300, status: 'success' },
    ],
    splits: [{ key: 'config:4', amount: 33, reversed: 19 }],
    expected: [{ key: 'config:4', amount: 33 }],
  };

  it('finds nothing when every service agrees', () => {
    expect(transactionDifferences(txn, ledger, 'success')).toEqual([]);
  });

  it('does not miss events webhook-dispatcher pruned after EVENT_RETENTION, and still checks the ledger', () => {
    expect(transactionDifferences(txn, ledger, undefined, '2026-03-10T12:00:00.001Z')).toEqual([]);
    expect(transactionDifferences(txn, ledger, 'processing', '2026-04-01T00:00:00.000Z')).toEqual([]);
    expect(transactionDifferences(txn, undefined, undefined, '2026-04-01T00:00:00.000Z')).toEqual([
      'transaction txn_7 (success): split-ledger-service has no record of it',
    ]);
    expect(transactionDifferences(txn, ledger, undefined, '2026-03-10T12:00:00.000Z')).toEqual([
      'transaction txn_7 (success): webhook-dispatcher recorded no transaction event',
    ]);
  });

  it('names a status the ledger or the dispatcher has wrong or missing', () => {
    expect(transactionDifferences(txn, { ...ledger, status: 'processing' }, 'processing')).toEqual([
      "transaction txn_7 (success): webhook-dispatcher's latest event is transaction.processing",
      'transaction txn_7 (success): split-ledger-service recorded processing',
    ]);
    expect(transactionDifferences(txn, undefined, undefined)).toEqual([
      'transaction txn_7 (success): webhook-dispatcher recorded no transaction event',
      'transaction txn_7 (success): split-ledger-service has no record of it',
    ]);
  });

  it('wants exactly one entry per applicable split, with the rule amount, and none other', () => {
    const doubled = { ...ledger, splits: [...ledger.splits, ...ledger.splits] };
    expect(transactionDifferences(txn, doubled, 'success')).toContain(
      'transaction txn_7 (success): 2 ledger entries for split config:4, expected exactly 1',
    );
    expect(transactionDifferences(txn, { ...ledger, splits: [] }, 'success')).toEqual([
      'transaction txn_7 (success): 0 ledger entries for split config:4, expected exactly 1',
    ]);
    expect(
      transactionDifferences(txn, { ...ledger, splits: [{ key: 'config:4', amount: 34, reversed: 19 }] }, 'success'),
    ).toContain('transaction txn_7 (success): ledger entry for split config:4 is 34, its rule gives 33');
    expect(
      transactionDifferences(
        txn,
        { ...ledger, splits: [...ledger.splits, { key: 'link:0', amount: 5, reversed: 2 }] },
        'success',
      ),
    ).toEqual(['transaction txn_7 (success): ledger entry for split link:0, which does not apply to it']);
  });

  it('checks reversals against the refunds transaction-service recorded', () => {
    expect(
      transactionDifferences(txn, { ...ledger, splits: [{ key: 'config:4', amount: 33, reversed: 18 }] }, 'success'),
    ).toEqual(['transaction txn_7 (success): split config:4 of 33 reversed by 18; 600 refunded makes it 19']);
    expect(transactionDifferences(txn, { ...ledger, refunds: ledger.refunds.slice(0, 1) }, 'success')).toEqual([
      'transaction txn_7 (success): refund 2 of 300 succeeded; split-ledger-service recorded no successful refund',
    ]);
  });

  it('wants no entries for a transaction that did not succeed', () => {
    const failed: ReconcileTransaction = { ...txn, status: 'failed', refunds: [] };
    expect(
      transactionDifferences(failed, { ...ledger, status: 'failed', refunds: [], expected: [] }, 'failed'),
    ).toEqual(['transaction txn_7 (failed): 1 ledger entries for a transaction that did not succeed']);
    expect(
      transactionDifferences(failed, { ...ledger, status: 'failed', refunds: [], splits: [], expected: [] }, 'failed'),
    ).toEqual([]);
  });
});

describe('deliveryDifferences', () => {
  const event: ReconcileWebhookEvent = {
    event_id: 'evt_1',
    event_type: 'transaction.success',
    business_id: 1,
    mode: 'test',
    created_at: '2026-01-01T10:00:00.000Z',
    delivered_to: [10],
  };
  const callback: ReconcileCallback = {
    id: 10,
    business_id: 1,
    mode: 'test',
    events: ['transaction.success'],
    is_active: true,
    deleted: false,
    created_at: '2026-01-01T09:00:00.000Z',
  };

  it('wants exactly one delivery per active subscribed callback registered before the event', () => {
    expect(deliveryDifferences(event, [callback])).toEqual([]);
    expect(deliveryDifferences({ ...event, delivered_to: [] }, [callback])).toEqual([
      'event evt_1 (transaction.success): 0 deliveries to callback 10, expected exactly 1',
    ]);
    expect(deliveryDifferences({ ...event, delivered_to: [10, 10] }, [callback])).toEqual([
      'event evt_1 (transaction.success): 2 deliveries to callback 10, expected exactly 1',
    ]);
  });

  it('expects nothing for callbacks that are inactive, deleted, elsewhere, unsubscribed or newer', () => {
    const none = { ...event, delivered_to: [] };
    for (const c of [
      { ...callback, is_active: false },
      { ...callback, deleted: true },
      { ...callback, business_id: 2 },
      { ...callback, mode: 'live' as const },
      { ...callback, events: ['transaction.failed'] },
      { ...callback, created_at: '2026-01-01T11:00:00.000Z' },
    ]) {
      expect(deliveryDifferences(none, [c])).toEqual([]);
    }
  });
});
