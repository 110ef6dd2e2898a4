import {
  TRANSACTION_STATUSES,
  type TransactionSnapshot,
  type TransactionStatus,
  type TransactionStatusChangedData,
} from '@payments/contracts';
import { EVENT_CATALOGUE, catalogueEventsForTransaction } from './catalogue';

function change(previous_status: TransactionStatus | null, status: TransactionStatus): TransactionStatusChangedData {
  const transaction = {
    id: 1,
    transaction_id: 'txn_1',
    transaction_reference: 'ref_1',
    business_id: 7,
    mode: 'test',
    amount: 1000,
    charges: 15,
    total: 1015,
    currency: 'USD',
    status,
    message: '',
    email: 'a@b.co',
    payment_method_type: 'mobile_money',
    payment_method_code: 'ecocash',
    checkout_id: null,
    payment_link_id: null,
    link_splits: [],
    version: 1,
    date_created: '2024-01-01T00:00:00.000Z',
    date_updated: '2024-01-01T00:00:00.000Z',
  } satisfies TransactionSnapshot;
  return { transaction, previous_status, status };
}

describe('catalogueEventsForTransaction', () => {
  it('creation → transaction.pending + payment.created', () => {
    expect(catalogueEventsForTransaction(change(null, 'pending'))).toEqual(['transaction.pending', 'payment.created']);
  });

  it('pending → processing → transaction.processing + payment.updated', () => {
    expect(catalogueEventsForTransaction(change('pending', 'processing'))).toEqual([
      'transaction.processing',
      'payment.updated',
    ]);
  });

  it('processing → success → transaction.success + payment.updated + payment.completed', () => {
    expect(catalogueEventsForTransaction(change('processing', 'success'))).toEqual([
      'transaction.success',
      'payment.updated',
      'payment.completed',
    ]);
  });

  it.each(['pending', 'processing'] as const)(
    '%s → failed → transaction.failed + payment.updated (never completed)',
    (from) => {
      expect(catalogueEventsForTransaction(change(from, 'failed'))).toEqual(['transaction.failed', 'payment.updated']);
    },
  );

  it('only ever returns names from EVENT_CATALOGUE, without duplicates', () => {
    const previous: (TransactionStatus | null)[] = [null, ...TRANSACTION_STATUSES];
    for (const p of previous) {
      for (const s of TRANSACTION_STATUSES) {
        const events = catalogueEventsForTransaction(change(p, s));
        for (const e of events) expect(EVENT_CATALOGUE).toContain(e);
        expect(new Set(events).size).toBe(events.length);
        expect(events[0]).toBe(`transaction.${s}`);
      }
    }
  });

  it('has a catalogue entry for every transaction status', () => {
    for (const s of TRANSACTION_STATUSES) expect(EVENT_CATALOGUE).toContain(`transaction.${s}`);
  });
});
