import type { ApiResponse, Stack } from './stack';
import { waitFor } from './wait';
import { payAndSettle, settled } from './payments';

/** Shapes and helpers shared by the split-config and ledger end-to-end tests. */
export type Business = Awaited<ReturnType<Stack['createBusiness']>>;
export type Body = Record<string, unknown>;
export interface Total {
  currency: string;
  total: number;
}
export interface Summary {
  owed_to_you: Total[];
  you_owe: Total[];
}
export interface Entry {
  public_id: string;
  transaction_id: number;
  split_config_id: number | null;
  creditor_business_id: number;
  debtor_business_id: number;
  amount: number;
  currency: string;
  status: string;
  invoice_reference: string | null;
  settlement_date: string | null;
  date_created: string;
}
export interface Invoice {
  invoice_reference: string;
  debtor_business_id: number;
  creditor_business_id: number;
  currency: string;
  amount: number;
  status: string;
  entry_count: number;
  period_end: string;
  date_created: string;
  date_paid: string | null;
  mode?: string;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const SPEC_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const INVOICE_REF = /^INV-\d{8}-\d+-\d+-[A-Z]{3}-(TEST|LIVE)-\d+$/;

/** Helpers for a stack started later (in a beforeAll): `current()` reads it at call time. */
export function splitsApi(current: () => Stack) {
  const api = <T = Body>(method: string, path: string, key?: string, body?: unknown): Promise<ApiResponse<T>> =>
    current().api<T>(method, path, { key, body });
  const admin = <T = Body>(method: string, path: string): Promise<ApiResponse<T>> =>
    current().api<T>(method, path, { headers: { authorization: `Bearer ${current().adminToken}` } });

  const createConfig = async (owner: Business, body: Body, key = owner.test.secret) => {
    const res = await api<{ split_config: { public_id: string } }>('POST', '/v1/splits/config', key, body);
    expect(res.status).toBe(200);
    return res.body.split_config.public_id;
  };

  let refs = 0;
  /** A mobile-money payment the sandbox settles to success on its own. */
  const pay = async (owner: Business, amount: number, currency = 'USD') => {
    const reference = `split-${++refs}-${Date.now()}`;
    const init = await payAndSettle(current(), owner.test.secret, reference, {
      amount,
      currency,
      payment_method_type: 'mobile_money',
    });
    return { reference, transactionId: init.transaction_id as string };
  };

  /** A card payment: pending until the customer pays on the hosted page (see `checkoutPay`). */
  const startCardPayment = async (owner: Business, amount: number) => {
    const reference = `card-${++refs}-${Date.now()}`;
    const init = await api('POST', '/v1/transactions', owner.test.secret, {
      amount,
      currency: 'USD',
      email: 'buyer@example.com',
      payment_method_code: 'zimswitch',
      transaction_reference: reference,
    });
    expect(init.status).toBe(200);
    return {
      reference,
      transactionId: init.body.transaction_id as string,
      checkoutId: new URL(init.body.checkout_url as string).searchParams.get('checkout_id')!,
    };
  };

  const checkoutPay = async (owner: Business, payment: { reference: string; checkoutId: string }) => {
    const res = await current().api('POST', '/checkout/pay', {
      rawBody: new URLSearchParams({ checkout_id: payment.checkoutId, action: 'pay' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBeLessThan(400);
    await settled(current(), owner.test.secret, payment.reference);
  };

  const summary = async (b: Business, key = b.test.secret): Promise<Summary> => {
    const res = await api<{ summary: Summary }>('GET', '/v1/splits/ledger/summary', key);
    expect(res.status).toBe(200);
    return res.body.summary;
  };
  const ledger = async (b: Business, query = '') => {
    const res = await api<{ ledger_entries: Entry[]; count: number }>(
      'GET',
      `/v1/splits/ledger${query}`,
      b.test.secret,
    );
    expect(res.status).toBe(200);
    return res.body;
  };
  /** The ledger's entries of one transaction (by its public id), for assertions only. */
  const entriesOf = async (transactionId: string) =>
    (
      await current()
        .db('split-ledger-service')
        .query(
          'SELECT kind, split_config_id::int AS split_config_id, link_split_index, creditor_business_id, ' +
            'debtor_business_id, amount::int AS amount, capped ' +
            'FROM ledger_entries WHERE transaction_public_id = $1 ORDER BY id',
          [transactionId],
        )
    ).rows;
  /** Waits until the ledger has applied the transaction's success (so "no entry" is a real answer). */
  const ledgerSaw = (transactionId: string) =>
    waitFor('the ledger to apply the success', async () => {
      const { rows } = await current()
        .db('split-ledger-service')
        .query("SELECT 1 FROM ledger_transactions WHERE public_id = $1 AND status = 'success'", [transactionId]);
      return rows.length === 1;
    });

  return { api, admin, createConfig, pay, startCardPayment, checkoutPay, summary, ledger, entriesOf, ledgerSaw };
}
