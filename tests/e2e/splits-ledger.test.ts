import { Stack, type ApiResponse } from '../support/stack';
import { waitFor } from '../support/wait';

type Business = Awaited<ReturnType<Stack['createBusiness']>>;
type Body = Record<string, unknown>;
interface Total {
  currency: string;
  total: number;
}
interface Summary {
  owed_to_you: Total[];
  you_owe: Total[];
}
interface Entry {
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
interface Invoice {
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SPEC_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const INVOICE_REF = /^INV-\d{8}-\d+-\d+-[A-Z]{3}-(TEST|LIVE)-\d+$/;

/**
 * Split configs, the commission ledger and settlement through the gateway, with the whole stack:
 * configs over RPC to split-ledger-service, payments settled by the sandbox, entries written from
 * Kafka events, refunds reversing them, invoices from a settlement run.
 */
describe('split payments and the commission ledger', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start();
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  const api = <T = Body>(method: string, path: string, key?: string, body?: unknown): Promise<ApiResponse<T>> => stack.api<T>(method, path, { key, body });
  const admin = <T = Body>(method: string, path: string): Promise<ApiResponse<T>> => stack.api<T>(method, path, { headers: { authorization: `Bearer ${stack.adminToken}` } });

  const createConfig = async (owner: Business, body: Body, key = owner.test.secret) => {
    const res = await api<{ split_config: { public_id: string } }>('POST', '/v1/splits/config', key, body);
    expect(res.status).toBe(200);
    return res.body.split_config.public_id;
  };

  let refs = 0;
  /** A mobile-money payment the sandbox settles to success on its own. */
  const pay = async (owner: Business, amount: number, currency = 'USD') => {
    const reference = `split-${++refs}-${Date.now()}`;
    const init = await api('POST', '/v1/transactions', owner.test.secret, {
      amount,
      currency,
      email: 'buyer@example.com',
      payment_method_type: 'mobile_money',
      payment_method_code: 'ecocash',
      mobile_money_number: '0771234567',
      requested_response: 'success',
      transaction_reference: reference,
    });
    expect(init.status).toBe(200);
    await waitFor(`payment ${reference} to succeed`, async () => (await api('GET', `/v1/transactions/verify?reference=${reference}`, owner.test.secret)).body.status === 'success');
    return { reference, transactionId: init.body.transaction_id as string };
  };

  /** A card payment: pending until the customer pays on the hosted page (see `checkoutPay`). */
  const startCardPayment = async (owner: Business, amount: number) => {
    const reference = `card-${++refs}-${Date.now()}`;
    const init = await api('POST', '/v1/transactions', owner.test.secret, { amount, currency: 'USD', email: 'buyer@example.com', payment_method_code: 'zimswitch', transaction_reference: reference });
    expect(init.status).toBe(200);
    return { reference, transactionId: init.body.transaction_id as string, checkoutId: new URL(init.body.checkout_url as string).searchParams.get('checkout_id')! };
  };

  const checkoutPay = async (owner: Business, payment: { reference: string; checkoutId: string }) => {
    const res = await stack.api('POST', '/checkout/pay', {
      rawBody: new URLSearchParams({ checkout_id: payment.checkoutId, action: 'pay' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBeLessThan(400);
    await waitFor(`payment ${payment.reference} to succeed`, async () => (await api('GET', `/v1/transactions/verify?reference=${payment.reference}`, owner.test.secret)).body.status === 'success');
  };

  const summary = async (b: Business, key = b.test.secret): Promise<Summary> => {
    const res = await api<{ summary: Summary }>('GET', '/v1/splits/ledger/summary', key);
    expect(res.status).toBe(200);
    return res.body.summary;
  };
  const ledger = async (b: Business, query = '') => {
    const res = await api<{ ledger_entries: Entry[]; count: number }>('GET', `/v1/splits/ledger${query}`, b.test.secret);
    expect(res.status).toBe(200);
    return res.body;
  };
  /** The ledger's entries of one transaction (by its public id), for assertions only. */
  const entriesOf = async (transactionId: string) =>
    (
      await stack.db('split-ledger-service').query(
        'SELECT kind, split_config_id::int AS split_config_id, link_split_index, creditor_business_id, debtor_business_id, amount::int AS amount, capped FROM ledger_entries WHERE transaction_public_id = $1 ORDER BY id',
        [transactionId],
      )
    ).rows;
  /** Waits until the ledger has applied the transaction's success (so "no entry" is a real answer). */
  const ledgerSaw = (transactionId: string) =>
    waitFor('the ledger to apply the success', async () => {
      const { rows } = await stack.db('split-ledger-service').query("SELECT 1 FROM ledger_transactions WHERE public_id = $1 AND status = 'success'", [transactionId]);
      return rows.length === 1;
    });

  describe('split config API', () => {
    let owner: Business;
    let partner: Business;
    let stranger: Business;
    const body = { partner_business_id: 0, split_type: 'percentage', split_value: 250, split_role: 'fee', currency: 'USD', description: 'Marketplace fee' };

    beforeAll(async () => {
      owner = await stack.createBusiness('Config Owner');
      partner = await stack.createBusiness('Config Partner');
      stranger = await stack.createBusiness('Config Stranger');
      body.partner_business_id = partner.id;
    });

    const configCount = async (b: Business, key = b.test.secret) => (await api<{ count: number }>('GET', '/v1/splits/config', key)).body.count;

    it('creates a config and answers exactly the spec fields', async () => {
      const res = await api('POST', '/v1/splits/config', owner.test.secret, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        result: 'success',
        split_config: {
          public_id: expect.stringMatching(UUID),
          owner_business_id: owner.id,
          partner_business_id: partner.id,
          split_type: 'percentage',
          split_value: 250,
          split_role: 'fee',
          currency: 'USD',
          description: 'Marketplace fee',
          is_active: true,
        },
        message: expect.any(String),
      });
    });

    it('lists the business’s configs with date_created and a count', async () => {
      const res = await api<{ split_configs: Body[]; count: number }>('GET', '/v1/splits/config', owner.test.secret);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: 'success', split_configs: expect.any(Array), count: 1 });
      expect(res.body.split_configs[0]).toEqual({
        public_id: expect.stringMatching(UUID),
        owner_business_id: owner.id,
        partner_business_id: partner.id,
        split_type: 'percentage',
        split_value: 250,
        split_role: 'fee',
        currency: 'USD',
        description: 'Marketplace fee',
        is_active: true,
        date_created: expect.stringMatching(SPEC_DATE_TIME),
      });
      const created = Date.parse(`${(res.body.split_configs[0].date_created as string).replace(' ', 'T')}Z`);
      expect(Math.abs(Date.now() - created)).toBeLessThan(60_000); // UTC
      expect(await configCount(partner)).toBe(0);
      expect(await configCount(owner, owner.live.secret)).toBe(0);
    });

    it.each([
      ['the owner itself as partner', () => ({ partner_business_id: owner.id }), 'partner_business_id'],
      ['a partner that does not exist', () => ({ partner_business_id: 987_654 }), 'partner_business_id'],
      ['a percentage above 10 000 bps', () => ({ split_value: 10_001 }), 'split_value'],
      ['a zero value', () => ({ split_value: 0 }), 'split_value'],
      ['an unknown split_type', () => ({ split_type: 'share' }), 'split_type'],
      ['an unknown split_role', () => ({ split_role: 'owner' }), 'split_role'],
      ['an unsupported currency', () => ({ currency: 'ABC' }), 'currency'],
      ['a description over 500 characters', () => ({ description: 'd'.repeat(501) }), 'description'],
      ['an unknown field', () => ({ is_active: false }), 'is_active'],
    ])('refuses %s with 400 naming the field, writing nothing', async (_what, change, field) => {
      const res = await api('POST', '/v1/splits/config', owner.test.secret, { ...body, ...change() });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'validation_error', request_id: expect.stringMatching(/^req_/) });
      expect((res.body.errors as { field: string }[]).map((e) => e.field)).toEqual([field]);
      expect(await configCount(owner)).toBe(1);
    });

    it('accepts only the secret key', async () => {
      const res = await api('POST', '/v1/splits/config', owner.test.public, body);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ result: 'error', code: 'secret_key_required' });
      expect((await api('GET', '/v1/splits/ledger/summary', owner.test.public)).status).toBe(403);
      expect((await api('GET', '/v1/splits/config')).status).toBe(401);
    });

    it('updates type, value, role and description, and refuses partner and currency', async () => {
      const id = await createConfig(owner, body);
      const res = await api('PUT', `/v1/splits/config/${id}`, owner.test.secret, { split_type: 'fixed', split_value: 50_000, split_role: 'principal', description: 'Fixed now' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        result: 'success',
        split_config: { public_id: id, owner_business_id: owner.id, partner_business_id: partner.id, split_type: 'fixed', split_value: 50_000, split_role: 'principal', currency: 'USD', description: 'Fixed now', is_active: true },
        message: expect.any(String),
      });
      for (const change of [{ partner_business_id: stranger.id }, { currency: 'ZAR' }]) {
        const refused = await api('PUT', `/v1/splits/config/${id}`, owner.test.secret, change);
        expect(refused.status).toBe(400);
        expect((refused.body.errors as { field: string }[]).map((e) => e.field)).toEqual(Object.keys(change));
      }
      // Back to percentage with a value above 10 000 bps: the merged config is checked.
      const merged = await api('PUT', `/v1/splits/config/${id}`, owner.test.secret, { split_type: 'percentage' });
      expect(merged.status).toBe(400);
      expect(merged.body).toMatchObject({ code: 'validation_error', errors: [{ field: 'split_value' }] });
      const unknown = await api('PUT', `/v1/splits/config/${id}`, owner.test.secret, { is_active: true });
      expect(unknown.status).toBe(400);
      const after = await api<{ split_configs: { public_id: string; split_value: number; split_type: string }[] }>('GET', '/v1/splits/config', owner.test.secret);
      expect(after.body.split_configs.find((c) => c.public_id === id)).toMatchObject({ split_type: 'fixed', split_value: 50_000 });
    });

    it('deactivates, repeatably, with the same answer', async () => {
      const id = await createConfig(owner, body);
      const first = await api('DELETE', `/v1/splits/config/${id}`, owner.test.secret);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ result: 'success', public_id: id, message: expect.any(String) });
      const again = await api('DELETE', `/v1/splits/config/${id}`, owner.test.secret);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      const list = await api<{ split_configs: { public_id: string; is_active: boolean }[] }>('GET', '/v1/splits/config', owner.test.secret);
      expect(list.body.split_configs.find((c) => c.public_id === id)?.is_active).toBe(false);
    });

    it('shows and changes a config only for its owner in its mode: 404 for anyone else, and for a malformed id', async () => {
      const id = await createConfig(owner, body);
      for (const key of [partner.test.secret, stranger.test.secret, owner.live.secret]) {
        const put = await api('PUT', `/v1/splits/config/${id}`, key, { split_value: 1 });
        expect(put.status).toBe(404);
        expect(put.body).toMatchObject({ result: 'error', code: 'not_found' });
        expect((await api('DELETE', `/v1/splits/config/${id}`, key)).status).toBe(404);
      }
      for (const bad of ['not-a-uuid', '12', `${id}x`]) {
        expect((await api('PUT', `/v1/splits/config/${bad}`, owner.test.secret, { split_value: 1 })).status).toBe(404);
        expect((await api('DELETE', `/v1/splits/config/${bad}`, owner.test.secret)).status).toBe(404);
      }
      const list = await api<{ split_configs: { public_id: string; split_value: number; is_active: boolean }[] }>('GET', '/v1/splits/config', owner.test.secret);
      expect(list.body.split_configs.find((c) => c.public_id === id)).toMatchObject({ split_value: 250, is_active: true });
    });
  });

  describe('applying splits, refunds and settlement', () => {
    let merchant: Business;
    let platform: Business;
    let supplier: Business;
    let paid: { reference: string; transactionId: string };

    beforeAll(async () => {
      merchant = await stack.createBusiness('Split Merchant');
      platform = await stack.createBusiness('Split Platform');
      supplier = await stack.createBusiness('Split Supplier');
    });

    it('records a paid transaction’s splits: the partner is owed, the owner owes (docs/decisions/0005-ledger.md)', async () => {
      // 2.5 % fee to the platform: floor(10 000 × 250 / 10 000) = 250.
      const feeId = await createConfig(merchant, { partner_business_id: platform.id, split_type: 'percentage', split_value: 250, split_role: 'fee', currency: 'USD' });
      // Principal to the supplier, the merchant keeping 1 500 as commission: 10 000 − 1 500 = 8 500.
      await createConfig(merchant, { partner_business_id: supplier.id, split_type: 'fixed', split_value: 1_500, split_role: 'principal', currency: 'USD' });
      // Neither of these applies to a test-mode USD payment.
      await createConfig(merchant, { partner_business_id: platform.id, split_type: 'fixed', split_value: 100, split_role: 'fee', currency: 'ZAR' });
      await createConfig(merchant, { partner_business_id: platform.id, split_type: 'fixed', split_value: 100, split_role: 'fee', currency: 'USD' }, merchant.live.secret);

      paid = await pay(merchant, 10_000);

      const platformSummary = await waitFor('the platform to be owed its fee', async () => {
        const s = await summary(platform);
        return s.owed_to_you.length > 0 ? s : undefined;
      });
      expect(platformSummary).toEqual({ owed_to_you: [{ currency: 'USD', total: 250 }], you_owe: [] });
      expect(await summary(supplier)).toEqual({ owed_to_you: [{ currency: 'USD', total: 8_500 }], you_owe: [] });
      expect(await summary(merchant)).toEqual({ owed_to_you: [], you_owe: [{ currency: 'USD', total: 8_750 }] });
      expect(await summary(platform, platform.live.secret)).toEqual({ owed_to_you: [], you_owe: [] });

      const { ledger_entries, count } = await ledger(platform);
      expect(count).toBe(1);
      const [feeConfigRow] = (await stack.db('split-ledger-service').query('SELECT id::int AS id FROM split_configs WHERE public_id = $1', [feeId])).rows;
      const [txnRow] = (await stack.db('transaction-service').query('SELECT id::int AS id FROM transactions WHERE public_id = $1', [paid.transactionId])).rows;
      expect(ledger_entries[0]).toEqual({
        public_id: expect.stringMatching(UUID),
        transaction_id: txnRow.id,
        split_config_id: feeConfigRow.id,
        creditor_business_id: platform.id,
        debtor_business_id: merchant.id,
        amount: 250,
        currency: 'USD',
        status: 'pending',
        invoice_reference: null,
        settlement_date: null,
        date_created: expect.stringMatching(SPEC_DATE_TIME),
      });
      expect(Object.keys(ledger_entries[0])).toHaveLength(11);
      expect((await ledger(merchant)).count).toBe(2);

      // Each entry is announced once on ledger.entry_created, keyed by the transaction.
      const { rows } = await stack.db('split-ledger-service').query(
        "SELECT payload->'data'->'entry'->>'amount' AS amount FROM outbox_events WHERE topic = 'ledger.entry_created' AND message_key = $1 ORDER BY id",
        [paid.transactionId],
      );
      expect(rows.map((r) => Number(r.amount))).toEqual([250, 8_500]);
    });

    it('pages the ledger newest first, with count the total', async () => {
      const all = await ledger(merchant);
      const page = await ledger(merchant, '?skip=1&limit=1');
      expect(page.count).toBe(all.count);
      expect(page.ledger_entries).toEqual([all.ledger_entries[1]]);
      const dates = all.ledger_entries.map((e) => e.date_created);
      expect([...dates].sort().reverse()).toEqual(dates);
      expect((await ledger(merchant, '?skip=50')).ledger_entries).toEqual([]);
      for (const q of ['?limit=501', '?limit=0', '?skip=-1', '?limit=abc', '?page=2']) {
        const res = await api('GET', `/v1/splits/ledger${q}`, merchant.test.secret);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'validation_error' });
      }
    });

    it('reverses the refunded share of each split when a refund succeeds', async () => {
      const refund = await api('POST', '/v1/transactions/refund', merchant.test.secret, { transaction_reference: paid.reference, amount: 4_000 });
      expect(refund.status).toBe(200);
      // 40 % refunded: platform 250 − floor(250 × 0.4) = 150; supplier 8 500 − 3 400 = 5 100.
      await waitFor('the reversals', async () => (await summary(platform)).owed_to_you[0]?.total === 150);
      expect(await summary(supplier)).toEqual({ owed_to_you: [{ currency: 'USD', total: 5_100 }], you_owe: [] });
      expect(await summary(merchant)).toEqual({ owed_to_you: [], you_owe: [{ currency: 'USD', total: 5_250 }] });
      const platformEntries = (await ledger(platform)).ledger_entries;
      expect(platformEntries.map((e) => e.amount).sort((a, b) => a - b)).toEqual([-100, 250]);
    });

    it('cancels a fully refunded transaction’s splits exactly', async () => {
      const buyer = await stack.createBusiness('Refund Merchant');
      const partner = await stack.createBusiness('Refund Partner');
      await createConfig(buyer, { partner_business_id: partner.id, split_type: 'percentage', split_value: 333, split_role: 'fee', currency: 'USD' });
      const p = await pay(buyer, 1_001); // floor(1 001 × 333 / 10 000) = 33
      await waitFor('the split', async () => (await summary(partner)).owed_to_you[0]?.total === 33);
      for (const amount of [300, 300, 401]) {
        const res = await api('POST', '/v1/transactions/refund', buyer.test.secret, { transaction_reference: p.reference, amount });
        expect(res.status).toBe(200);
        await waitFor('the refund to succeed', async () => (await api('GET', `/v1/transactions/refunds/${res.body.refund_id}`, buyer.test.secret)).body.status === 'success');
      }
      await waitFor('three reversals', async () => (await entriesOf(p.transactionId)).length === 4);
      // Cumulative rounding: floor(33 × 300/1001) = 9, floor(33 × 600/1001) − 9 = 10, 33 − 19 = 14.
      expect((await entriesOf(p.transactionId)).map((e) => e.amount)).toEqual([33, -9, -10, -14]);
      expect(await summary(partner)).toEqual({ owed_to_you: [{ currency: 'USD', total: 0 }], you_owe: [] });
    });

    it('settles pending entries once: invoiced, listed, paid; a second run invoices nothing', async () => {
      const pendingBefore = (await stack.db('split-ledger-service').query("SELECT count(*)::int AS n FROM ledger_entries WHERE status = 'pending'")).rows[0].n;
      expect(pendingBefore).toBeGreaterThanOrEqual(4);

      const run = await admin<{ invoices: Invoice[]; entries_invoiced: number; count: number; period_end: string }>('POST', '/admin/v1/settlements/run');
      expect(run.status).toBe(200);
      expect(run.body.entries_invoiced).toBe(pendingBefore);
      expect(run.body.period_end).toMatch(SPEC_DATE_TIME);
      const toPlatform = run.body.invoices.find((i) => i.creditor_business_id === platform.id)!;
      expect(toPlatform).toEqual({
        invoice_reference: expect.stringMatching(INVOICE_REF),
        debtor_business_id: merchant.id,
        creditor_business_id: platform.id,
        currency: 'USD',
        amount: 150,
        status: 'issued',
        entry_count: 2,
        period_end: run.body.period_end,
        date_created: expect.stringMatching(SPEC_DATE_TIME),
        date_paid: null,
        mode: 'test',
      });
      expect(toPlatform.invoice_reference).toMatch(new RegExp(`^INV-\\d{8}-${merchant.id}-${platform.id}-USD-TEST-1$`));
      expect(run.body.invoices.find((i) => i.creditor_business_id === supplier.id)).toMatchObject({ amount: 5_100, entry_count: 2, status: 'issued' });
      expect((await stack.db('split-ledger-service').query("SELECT count(*)::int AS n FROM ledger_entries WHERE status = 'pending'")).rows[0].n).toBe(0);

      const again = await admin<{ invoices: Invoice[]; entries_invoiced: number }>('POST', '/admin/v1/settlements/run');
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ invoices: [], entries_invoiced: 0 });

      // The entries carry the invoice; invoiced is still unsettled, so the summary is unchanged.
      const entries = (await ledger(platform)).ledger_entries;
      for (const e of entries) expect(e).toMatchObject({ status: 'invoiced', invoice_reference: toPlatform.invoice_reference, settlement_date: expect.stringMatching(SPEC_DATE_TIME) });
      expect(await summary(platform)).toEqual({ owed_to_you: [{ currency: 'USD', total: 150 }], you_owe: [] });

      // Both sides see the invoice, in their mode only.
      for (const b of [platform, merchant]) {
        const list = await api<{ invoices: Invoice[]; count: number }>('GET', '/v1/splits/invoices', b.test.secret);
        expect(list.status).toBe(200);
        expect(list.body.invoices.map((i) => i.invoice_reference)).toContain(toPlatform.invoice_reference);
      }
      expect((await api<{ count: number }>('GET', '/v1/splits/invoices', platform.live.secret)).body.count).toBe(0);
      expect((await api<{ count: number }>('GET', '/v1/splits/invoices', supplier.test.secret)).body.count).toBe(1);

      // The creditor is told: settlement.invoice_changed, business_id = creditor, status issued.
      const issued = (
        await stack.db('split-ledger-service').query("SELECT payload FROM outbox_events WHERE topic = 'settlement.invoice_changed' AND message_key = $1 ORDER BY id", [
          toPlatform.invoice_reference,
        ])
      ).rows.map((r) => r.payload);
      expect(issued).toHaveLength(1);
      expect(issued[0]).toMatchObject({ business_id: platform.id, mode: 'test', data: { previous_status: null, status: 'issued', invoice: { amount: 150, status: 'issued', entry_count: 2, date_paid: null } } });

      // Paid: entries settled, gone from the summary; marking again answers the same.
      const path = `/admin/v1/invoices/${toPlatform.invoice_reference}/paid`;
      const paidRes = await admin<{ invoice: Invoice }>('POST', path);
      expect(paidRes.status).toBe(200);
      expect(paidRes.body.invoice).toMatchObject({ invoice_reference: toPlatform.invoice_reference, status: 'paid', date_paid: expect.stringMatching(SPEC_DATE_TIME) });
      const paidAgain = await admin<{ invoice: Invoice }>('POST', path);
      expect(paidAgain.status).toBe(200);
      expect(paidAgain.body.invoice).toEqual(paidRes.body.invoice);
      expect((await ledger(platform)).ledger_entries.map((e) => e.status)).toEqual(['settled', 'settled']);
      expect(await summary(platform)).toEqual({ owed_to_you: [], you_owe: [] });
      expect(await summary(merchant)).toEqual({ owed_to_you: [], you_owe: [{ currency: 'USD', total: 5_100 }] });
      const events = (
        await stack.db('split-ledger-service').query("SELECT payload->'data'->>'status' AS status, payload->'data'->>'previous_status' AS prev FROM outbox_events WHERE topic = 'settlement.invoice_changed' AND message_key = $1 ORDER BY id", [
          toPlatform.invoice_reference,
        ])
      ).rows;
      expect(events).toEqual([
        { status: 'issued', prev: null },
        { status: 'paid', prev: 'issued' },
      ]);

      expect((await admin('POST', '/admin/v1/invoices/INV-20200101-1-2-USD-TEST-1/paid')).status).toBe(404);
      expect((await admin('POST', '/admin/v1/invoices/nonsense/paid')).status).toBe(404);
      expect((await stack.api('POST', '/admin/v1/settlements/run', { key: merchant.test.secret })).status).toBe(401);
    });
  });

  describe('which configs apply: the version in force when the transaction was created', () => {
    let owner: Business;
    let partner: Business;

    beforeAll(async () => {
      owner = await stack.createBusiness('Version Owner');
      partner = await stack.createBusiness('Version Partner');
    });

    it('ignores a config created after the transaction, and applies the terms in force at its creation', async () => {
      const before = await startCardPayment(owner, 10_000);
      const id = await createConfig(owner, { partner_business_id: partner.id, split_type: 'fixed', split_value: 100, split_role: 'fee', currency: 'USD' });
      const underV1 = await startCardPayment(owner, 10_000);
      expect((await api('PUT', `/v1/splits/config/${id}`, owner.test.secret, { split_value: 300 })).status).toBe(200);
      const underV2 = await startCardPayment(owner, 10_000);
      expect((await api('DELETE', `/v1/splits/config/${id}`, owner.test.secret)).status).toBe(200);
      const afterDeactivation = await startCardPayment(owner, 10_000);

      // All succeed only now, after every change.
      for (const p of [before, underV1, underV2, afterDeactivation]) await checkoutPay(owner, p);
      for (const p of [before, underV1, underV2, afterDeactivation]) await ledgerSaw(p.transactionId);

      expect(await entriesOf(before.transactionId)).toEqual([]);
      expect((await entriesOf(underV1.transactionId)).map((e) => e.amount)).toEqual([100]);
      expect((await entriesOf(underV2.transactionId)).map((e) => e.amount)).toEqual([300]);
      expect(await entriesOf(afterDeactivation.transactionId)).toEqual([]);
    });

    it('applies payment-link splits as fee splits, after the configs, capped to the amount', async () => {
      const linkPartner = await stack.createBusiness('Link Partner');
      await createConfig(owner, { partner_business_id: partner.id, split_type: 'percentage', split_value: 9_000, split_role: 'fee', currency: 'USD' });
      const link = await api('POST', '/v1/links', owner.test.secret, {
        amount: 5_000,
        currency: 'USD',
        description: 'Concert ticket',
        splits: [{ business_id: linkPartner.id, type: 'fixed', value: 700 }],
      });
      expect(link.status).toBe(200);
      const res = await stack.api('POST', '/checkout/pay', {
        rawBody: new URLSearchParams({ checkout_id: link.body.payment_link_id as string, action: 'pay', email: 'fan@example.com', payment_method_code: 'zimswitch' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBeLessThan(400);
      const entries = await waitFor('the link payment’s entries', async () => {
        const { rows } = await stack.db('split-ledger-service').query(
          "SELECT e.transaction_public_id FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id WHERE t.link_splits <> '[]'::jsonb AND e.debtor_business_id = $1",
          [owner.id],
        );
        return rows.length === 2 ? entriesOf(rows[0].transaction_public_id) : undefined;
      });
      // Config first: floor(5 000 × 90 %) = 4 500; the link's 700 is capped to the 500 left.
      expect(entries).toEqual([
        { kind: 'split', split_config_id: expect.any(Number), link_split_index: null, creditor_business_id: partner.id, debtor_business_id: owner.id, amount: 4_500, capped: false },
        { kind: 'split', split_config_id: null, link_split_index: 0, creditor_business_id: linkPartner.id, debtor_business_id: owner.id, amount: 500, capped: true },
      ]);
      const linkLedger = await ledger(linkPartner);
      expect(linkLedger.ledger_entries[0]).toMatchObject({ split_config_id: null, amount: 500, creditor_business_id: linkPartner.id });
    });
  });
});
