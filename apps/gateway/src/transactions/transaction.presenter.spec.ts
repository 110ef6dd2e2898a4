import type { InitializeTransactionResult, TransactionView } from '@payments/contracts';
import { presentInitialized, presentVerified } from './transaction.presenter';

const BASE = 'https://pay.example.com/checkout';

function result(over: Partial<InitializeTransactionResult> = {}): InitializeTransactionResult {
  return {
    transaction_id: 'txn_abc',
    transaction_reference: 'ref_123',
    amount: 1000,
    charges: 15,
    total: 1015,
    currency: 'USD',
    status: 'pending',
    message: 'Transaction initialized',
    checkout_id: null,
    metadata: {},
    description: null,
    ...over,
  };
}

describe('presentInitialized', () => {
  it('returns exactly result, transaction_id, transaction_reference, message and total without a checkout', () => {
    expect(presentInitialized(result(), BASE)).toStrictEqual({
      result: 'success',
      transaction_id: 'txn_abc',
      transaction_reference: 'ref_123',
      message: 'Transaction initialized',
      total: 10.15,
      metadata: {},
      description: null,
    });
  });

  it.each([
    [1015, 'USD', 10.15],
    [1000, 'USD', 10],
    [5, 'USD', 0.05],
    [1015, 'JPY', 1015],
    [1015, 'BHD', 1.015],
  ])('gives total %i %s as %d in major units', (total, currency, major) => {
    const body = presentInitialized(result({ total, currency }), BASE);
    expect(body.total).toBe(major);
    expect(typeof body.total).toBe('number');
  });

  it('does not leak amount, charges, currency or status', () => {
    const body = presentInitialized(result(), BASE);
    for (const k of ['amount', 'charges', 'currency', 'status']) expect(body).not.toHaveProperty(k);
  });

  it('adds checkout_url = <base>?checkout_id=<id> when a checkout id is given', () => {
    const body = presentInitialized(result({ checkout_id: 'chk_XYZ123' }), BASE);
    expect(body.checkout_url).toBe('https://pay.example.com/checkout?checkout_id=chk_XYZ123');
    expect(Object.keys(body).sort()).toEqual([
      'checkout_url',
      'description',
      'message',
      'metadata',
      'result',
      'total',
      'transaction_id',
      'transaction_reference',
    ]);
  });

  it('encodes the checkout id in the query string', () => {
    const body = presentInitialized(result({ checkout_id: 'a b&c=d' }), BASE);
    expect(body.checkout_url).toBe(`${BASE}?checkout_id=a%20b%26c%3Dd`);
    expect(new URL(body.checkout_url as string).searchParams.get('checkout_id')).toBe('a b&c=d');
  });

  it('adds no checkout_url for a null checkout id', () => {
    expect(presentInitialized(result({ checkout_id: null }), BASE)).not.toHaveProperty('checkout_url');
  });
});

describe('presentVerified', () => {
  const view: TransactionView = {
    transaction_id: 'txn_abc',
    transaction_reference: 'ref_123',
    amount: 1000,
    charges: 15,
    total: 1015,
    currency: 'USD',
    status: 'success',
    message: 'Paid',
    email: 'payer@example.com',
    checkout_id: 'chk_1',
    success_url: 'https://shop.example.com/ok',
    failure_url: null,
    payment_method_type: 'mobile_money',
    payment_method_code: 'ecocash',
    payment_link_id: null,
    amount_refunded: 250,
    metadata: { order_id: 'A-17' },
    description: '2 shirts',
    date_created: '2024-05-01T12:34:56.789Z',
    date_updated: '2024-05-01T12:35:00.000Z',
  };

  it('maps the view to the public Transaction shape', () => {
    expect(presentVerified(view)).toStrictEqual({
      result: 'success',
      transaction_id: 'txn_abc',
      transaction_reference: 'ref_123',
      amount: 1000,
      charges: 15,
      total: 1015,
      currency: 'USD',
      status: 'success',
      emailAddress: 'payer@example.com',
      checkoutId: 'chk_1',
      successUrl: 'https://shop.example.com/ok',
      failureUrl: null,
      dateCreated: '2024-05-01T12:34:56.789Z',
      amount_refunded: 250,
      metadata: { order_id: 'A-17' },
      description: '2 shirts',
    });
  });

  it('keeps amounts as integer minor units, even for JPY and BHD', () => {
    for (const currency of ['JPY', 'BHD']) {
      const body = presentVerified({ ...view, currency, amount: 1001, charges: 16, total: 1017 });
      expect([body.amount, body.charges, body.total]).toEqual([1001, 16, 1017]);
      for (const v of [body.amount, body.charges, body.total]) expect(Number.isInteger(v)).toBe(true);
    }
  });

  it('does not expose the snake-case email and date_created names', () => {
    const body = presentVerified(view);
    expect(body).not.toHaveProperty('email');
    expect(body).not.toHaveProperty('date_created');
  });
});
