import { Stack } from '../support/stack';
import { splitsApi, UUID, SPEC_DATE_TIME, type Business, type Body } from '../support/splits';
import { waitFor } from '../support/wait';

/**
 * Split configs through the gateway with the whole stack: the config API over RPC to
 * split-ledger-service, and which config version a payment gets (the one in force when it was
 * created).
 */
describe('split configs', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start();
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  const { api, createConfig, startCardPayment, checkoutPay, ledger, entriesOf, ledgerSaw } = splitsApi(() => stack);

  describe('split config API', () => {
    let owner: Business;
    let partner: Business;
    let stranger: Business;
    const body = {
      partner_business_id: 0,
      split_type: 'percentage',
      split_value: 250,
      split_role: 'fee',
      currency: 'USD',
      description: 'Marketplace fee',
    };

    beforeAll(async () => {
      owner = await stack.createBusiness('Config Owner');
      partner = await stack.createBusiness('Config Partner');
      stranger = await stack.createBusiness('Config Stranger');
      body.partner_business_id = partner.id;
    });

    const configCount = async (b: Business, key = b.test.secret) =>
      (await api<{ count: number }>('GET', '/v1/splits/config', key)).body.count;

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
      expect(res.body).toEqual({ result: 'success', split_configs: expect.any(Array), count: 1, has_more: false });
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
      expect(res.body).toMatchObject({
        result: 'error',
        code: 'validation_error',
        request_id: expect.stringMatching(/^req_/),
      });
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
      const res = await api('PUT', `/v1/splits/config/${id}`, owner.test.secret, {
        split_type: 'fixed',
        split_value: 50_000,
        split_role: 'principal',
        description: 'Fixed now',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        result: 'success',
        split_config: {
          public_id: id,
          owner_business_id: owner.id,
          partner_business_id: partner.id,
          split_type: 'fixed',
          split_value: 50_000,
          split_role: 'principal',
          currency: 'USD',
          description: 'Fixed now',
          is_active: true,
        },
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
      const after = await api<{ split_configs: { public_id: string; split_value: number; split_type: string }[] }>(
        'GET',
        '/v1/splits/config',
        owner.test.secret,
      );
      expect(after.body.split_configs.find((c) => c.public_id === id)).toMatchObject({
        split_type: 'fixed',
        split_value: 50_000,
      });
    });

    it('deactivates, repeatably, with the same answer', async () => {
      const id = await createConfig(owner, body);
      const first = await api('DELETE', `/v1/splits/config/${id}`, owner.test.secret);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ result: 'success', public_id: id, message: expect.any(String) });
      const again = await api('DELETE', `/v1/splits/config/${id}`, owner.test.secret);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      const list = await api<{ split_configs: { public_id: string; is_active: boolean }[] }>(
        'GET',
        '/v1/splits/config',
        owner.test.secret,
      );
      expect(list.body.split_configs.find((c) => c.public_id === id)?.is_active).toBe(false);
    });

    it('only its owner in its mode sees and changes a config: 404 for anyone else and for a malformed id', async () => {
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
      const list = await api<{ split_configs: { public_id: string; split_value: number; is_active: boolean }[] }>(
        'GET',
        '/v1/splits/config',
        owner.test.secret,
      );
      expect(list.body.split_configs.find((c) => c.public_id === id)).toMatchObject({
        split_value: 250,
        is_active: true,
      });
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
      const id = await createConfig(owner, {
        partner_business_id: partner.id,
        split_type: 'fixed',
        split_value: 100,
        split_role: 'fee',
        currency: 'USD',
      });
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
      await createConfig(owner, {
        partner_business_id: partner.id,
        split_type: 'percentage',
        split_value: 9_000,
        split_role: 'fee',
        currency: 'USD',
      });
      const link = await api('POST', '/v1/links', owner.test.secret, {
        amount: 5_000,
        currency: 'USD',
        description: 'Concert ticket',
        splits: [{ business_id: linkPartner.id, type: 'fixed', value: 700 }],
      });
      expect(link.status).toBe(200);
      const res = await stack.api('POST', '/checkout/pay', {
        rawBody: new URLSearchParams({
          checkout_id: link.body.payment_link_id as string,
          action: 'pay',
          email: 'fan@example.com',
          payment_method_code: 'zimswitch',
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBeLessThan(400);
      const entries = await waitFor('the link payment’s entries', async () => {
        const { rows } = await stack
          .db('split-ledger-service')
          .query(
            'SELECT e.transaction_public_id FROM ledger_entries e ' +
              'JOIN ledger_transactions t ON t.id = e.transaction_id ' +
              "WHERE t.link_splits <> '[]'::jsonb AND e.debtor_business_id = $1",
            [owner.id],
          );
        return rows.length === 2 ? entriesOf(rows[0].transaction_public_id) : undefined;
      });
      // Config first: floor(5 000 × 90 %) = 4 500; the link's 700 is capped to the 500 left.
      expect(entries).toEqual([
        {
          kind: 'split',
          split_config_id: expect.any(Number),
          link_split_index: null,
          creditor_business_id: partner.id,
          debtor_business_id: owner.id,
          amount: 4_500,
          capped: false,
        },
        {
          kind: 'split',
          split_config_id: null,
          link_split_index: 0,
          creditor_business_id: linkPartner.id,
          debtor_business_id: owner.id,
          amount: 500,
          capped: true,
        },
      ]);
      const linkLedger = await ledger(linkPartner);
      expect(linkLedger.ledger_entries[0]).toMatchObject({
        split_config_id: null,
        amount: 500,
        creditor_business_id: linkPartner.id,
      });
    });
  });
});
