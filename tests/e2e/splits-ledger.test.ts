import { Stack } from '../support/stack';
import { splitsApi, UUID, SPEC_DATE_TIME, INVOICE_REF, type Business, type Invoice } from '../support/splits';
import { waitFor } from '../support/wait';

/**
 * The commission ledger and settlement through the gateway, with the whole stack: payments
 * settled by the sandbox, entries written from Kafka events, refunds reversing them, invoices
 * from a settlement run.
 */
describe('split payments and the commission ledger', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start();
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  const { api, admin, createConfig, pay, summary, ledger, entriesOf } = splitsApi(() => stack);

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

    it('records a paid transaction’s splits: the partner is owed, the owner owes (decision 0005-ledger)', async () => {
      // 2.5 % fee to the platform: floor(10 000 × 250 / 10 000) = 250.
      const feeId = await createConfig(merchant, {
        partner_business_id: platform.id,
        split_type: 'percentage',
        split_value: 250,
        split_role: 'fee',
        currency: 'USD',
      });
      // Principal to the supplier, the merchant keeping 1 500 as commission: 10 000 − 1 500 = 8 500.
      await createConfig(merchant, {
        partner_business_id: supplier.id,
        split_type: 'fixed',
        split_value: 1_500,
        split_role: 'principal',
        currency: 'USD',
      });
      // Neither of these applies to a test-mode USD payment.
      await createConfig(merchant, {
        partner_business_id: platform.id,
        split_type: 'fixed',
        split_value: 100,
        split_role: 'fee',
        currency: 'ZAR',
      });
      await createConfig(
        merchant,
        {
          partner_business_id: platform.id,
          split_type: 'fixed',
          split_value: 100,
          split_role: 'fee',
          currency: 'USD',
        },
        merchant.live.secret,
      );

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
      const [feeConfigRow] = (
        await stack
          .db('split-ledger-service')
          .query('SELECT id::int AS id FROM split_configs WHERE public_id = $1', [feeId])
      ).rows;
      const [txnRow] = (
        await stack
          .db('transaction-service')
          .query('SELECT id::int AS id FROM transactions WHERE public_id = $1', [paid.transactionId])
      ).rows;
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
      const { rows } = await stack
        .db('split-ledger-service')
        .query(
          "SELECT payload->'data'->'entry'->>'amount' AS amount FROM outbox_events " +
            "WHERE topic = 'ledger.entry_created' AND message_key = $1 ORDER BY id",
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
      const refund = await api('POST', '/v1/transactions/refund', merchant.test.secret, {
        transaction_reference: paid.reference,
        amount: 4_000,
      });
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
      await createConfig(buyer, {
        partner_business_id: partner.id,
        split_type: 'percentage',
        split_value: 333,
        split_role: 'fee',
        currency: 'USD',
      });
      const p = await pay(buyer, 1_001); // floor(1 001 × 333 / 10 000) = 33
      await waitFor('the split', async () => (await summary(partner)).owed_to_you[0]?.total === 33);
      for (const amount of [300, 300, 401]) {
        const res = await api('POST', '/v1/transactions/refund', buyer.test.secret, {
          transaction_reference: p.reference,
          amount,
        });
        expect(res.status).toBe(200);
        await waitFor(
          'the refund to succeed',
          async () =>
            (await api('GET', `/v1/transactions/refunds/${res.body.refund_id}`, buyer.test.secret)).body.status ===
            'success',
        );
      }
      await waitFor('three reversals', async () => (await entriesOf(p.transactionId)).length === 4);
      // Cumulative rounding: floor(33 × 300/1001) = 9, floor(33 × 600/1001) − 9 = 10, 33 − 19 = 14.
      expect((await entriesOf(p.transactionId)).map((e) => e.amount)).toEqual([33, -9, -10, -14]);
      expect(await summary(partner)).toEqual({ owed_to_you: [{ currency: 'USD', total: 0 }], you_owe: [] });
    });

    it('settles pending entries once: invoiced, listed, paid; a second run invoices nothing', async () => {
      const pendingBefore = (
        await stack
          .db('split-ledger-service')
          .query("SELECT count(*)::int AS n FROM ledger_entries WHERE status = 'pending'")
      ).rows[0].n;
      expect(pendingBefore).toBeGreaterThanOrEqual(4);

      const run = await admin<{ invoices: Invoice[]; entries_invoiced: number; count: number; period_end: string }>(
        'POST',
        '/admin/v1/settlements/run',
      );
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
      expect(run.body.invoices.find((i) => i.creditor_business_id === supplier.id)).toMatchObject({
        amount: 5_100,
        entry_count: 2,
        status: 'issued',
      });
      expect(
        (
          await stack
            .db('split-ledger-service')
            .query("SELECT count(*)::int AS n FROM ledger_entries WHERE status = 'pending'")
        ).rows[0].n,
      ).toBe(0);

      const again = await admin<{ invoices: Invoice[]; entries_invoiced: number }>('POST', '/admin/v1/settlements/run');
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ invoices: [], entries_invoiced: 0 });

      // The entries carry the invoice; invoiced is still unsettled, so the summary is unchanged.
      const entries = (await ledger(platform)).ledger_entries;
      for (const e of entries)
        expect(e).toMatchObject({
          status: 'invoiced',
          invoice_reference: toPlatform.invoice_reference,
          settlement_date: expect.stringMatching(SPEC_DATE_TIME),
        });
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
        await stack
          .db('split-ledger-service')
          .query(
            'SELECT payload FROM outbox_events ' +
              "WHERE topic = 'settlement.invoice_changed' AND message_key = $1 ORDER BY id",
            [toPlatform.invoice_reference],
          )
      ).rows.map((r) => r.payload);
      expect(issued).toHaveLength(1);
      expect(issued[0]).toMatchObject({
        business_id: platform.id,
        mode: 'test',
        data: {
          previous_status: null,
          status: 'issued',
          invoice: { amount: 150, status: 'issued', entry_count: 2, date_paid: null },
        },
      });

      // Paid: entries settled, gone from the summary; marking again answers the same.
      const path = `/admin/v1/invoices/${toPlatform.invoice_reference}/paid`;
      const paidRes = await admin<{ invoice: Invoice }>('POST', path);
      expect(paidRes.status).toBe(200);
      expect(paidRes.body.invoice).toMatchObject({
        invoice_reference: toPlatform.invoice_reference,
        status: 'paid',
        date_paid: expect.stringMatching(SPEC_DATE_TIME),
      });
      const paidAgain = await admin<{ invoice: Invoice }>('POST', path);
      expect(paidAgain.status).toBe(200);
      expect(paidAgain.body.invoice).toEqual(paidRes.body.invoice);
      expect((await ledger(platform)).ledger_entries.map((e) => e.status)).toEqual(['settled', 'settled']);
      expect(await summary(platform)).toEqual({ owed_to_you: [], you_owe: [] });
      expect(await summary(merchant)).toEqual({ owed_to_you: [], you_owe: [{ currency: 'USD', total: 5_100 }] });
      const events = (
        await stack
          .db('split-ledger-service')
          .query(
            "SELECT payload->'data'->>'status' AS status, payload->'data'->>'previous_status' AS prev " +
              "FROM outbox_events WHERE topic = 'settlement.invoice_changed' AND message_key = $1 ORDER BY id",
            [toPlatform.invoice_reference],
          )
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
});
