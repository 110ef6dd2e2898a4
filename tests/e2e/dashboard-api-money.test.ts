import { DashboardClient, createDashboardUser } from '../support/dashboard';
import { linkPaymentWithEntries, payThroughLink, type DashboardEntry } from '../support/dashboard-money';
import { Stack } from '../support/stack';

type Link = {
  payment_link_id: string;
  amount: number;
  currency: string;
  description: string;
  splits: { business_id: number; type: string; value: number }[];
  active: boolean;
};
type Invoice = {
  invoice_reference: string;
  debtor_business_id: number;
  creditor_business_id: number;
  amount: number;
  currency: string;
  status: string;
};

/**
 * The dashboard's payment links and splits API over HTTP: the same rules and answers as /v1/links
 * and /v1/splits, a payment's split ledger entries, roles (a viewer reads but may not write), and
 * another business's or mode's ids answering 404.
 */
describe('dashboard API: payment links and splits', () => {
  jest.setTimeout(60_000);
  let stack: Stack;
  let shop: Awaited<ReturnType<Stack['createBusiness']>>;
  let partner: Awaited<ReturnType<Stack['createBusiness']>>;
  let other: Awaited<ReturnType<Stack['createBusiness']>>;
  let owner: DashboardClient;
  let viewer: DashboardClient;
  let partnerOwner: DashboardClient;
  let otherOwner: DashboardClient;
  let link: Link;
  let transactionId: string;

  const signedIn = async (businessId: number, role: 'owner' | 'developer' | 'viewer') => {
    const c = new DashboardClient(stack);
    expect((await c.login(await createDashboardUser(stack, businessId, role))).status).toBe(200);
    return c;
  };
  const create = (c: DashboardClient, body: unknown, key = `link-${Math.random().toString(36).slice(2)}`) =>
    c.request<{ link: Link; code?: string; errors?: { field: string; message: string }[] }>(
      'POST',
      '/dashboard/api/links',
      { body, headers: { 'idempotency-key': key } },
    );

  beforeAll(async () => {
    stack = await Stack.start();
    shop = await stack.createBusiness('Money Shop');
    partner = await stack.createBusiness('Money Partner');
    other = await stack.createBusiness('Money Other');
    owner = await signedIn(shop.id, 'owner');
    viewer = await signedIn(shop.id, 'viewer');
    partnerOwner = await signedIn(partner.id, 'owner');
    otherOwner = await signedIn(other.id, 'owner');
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('creates a link with a split as POST /v1/links does; a retry with the same key replays it', async () => {
    const body = {
      amount: 5000,
      currency: 'USD',
      description: 'Concert ticket',
      splits: [{ business_id: partner.id, type: 'fixed', value: 700 }],
    };
    const keyless = await owner.request('POST', '/dashboard/api/links', { body });
    expect(keyless).toMatchObject({
      status: 400,
      body: { code: 'validation_error', errors: [{ field: 'Idempotency-Key', message: 'is required' }] },
    });
    const made = await create(owner, body, 'concert-1');
    expect(made.status).toBe(201);
    link = made.body.link;
    expect(link).toMatchObject({
      payment_link_id: expect.stringMatching(/^plink_/),
      amount: 5000,
      currency: 'USD',
      active: true,
      splits: [{ business_id: partner.id, type: 'fixed', value: 700 }],
    });
    const again = await create(owner, body, 'concert-1');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.link.payment_link_id).toBe(link.payment_link_id);
    // The API sees the same link, once.
    const api = await stack.api<{ links: { payment_link_id: string; splits: unknown[] }[] }>('GET', '/v1/links', {
      key: shop.test.secret,
    });
    expect(api.body.links.map((l) => l.payment_link_id)).toEqual([link.payment_link_id]);
    expect(api.body.links[0].splits).toEqual([
      { business_id: partner.id, type: 'fixed', value: 700, description: null },
    ]);
    const audit = await owner.get<{ entries: { action: string; target: string; details: Record<string, unknown> }[] }>(
      '/dashboard/api/audit',
    );
    expect(audit.body.entries[0]).toMatchObject({
      action: 'link.create',
      target: link.payment_link_id,
      details: { amount: 5000, currency: 'USD', splits: 1 },
    });
  });

  it('refuses what /v1/links refuses, naming each field (400)', async () => {
    const ok = { amount: 1000, currency: 'USD', description: 'Shirt' };
    const cases: [unknown, { field: string; message: string }[]][] = [
      [{ ...ok, amount: 0 }, [{ field: 'amount', message: expect.stringMatching(/^must be/) }]],
      [{ ...ok, currency: 'XXX' }, [{ field: 'currency', message: expect.stringMatching(/^must be one of USD/) }]],
      [{ ...ok, colour: 'blue' }, [{ field: 'colour', message: 'is not a recognised field' }]],
      [
        { ...ok, splits: [{ business_id: partner.id, type: 'percentage', value: 10_001 }] },
        [{ field: 'splits.0.value', message: expect.stringContaining('10000 basis points') }],
      ],
      [
        { ...ok, splits: [{ business_id: partner.id, type: 'share', value: 5 }] },
        [{ field: 'splits.0.type', message: 'must be percentage or fixed' }],
      ],
      [
        { ...ok, splits: [{ business_id: 999_999, type: 'fixed', value: 5 }] },
        [{ field: 'splits.0.business_id', message: 'is not an existing business' }],
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await create(owner, body);
      expect({ body, status: res.status, errors: res.body.errors }).toEqual({ body, status: 400, errors });
    }
    expect(
      (await stack.api<{ links: unknown[] }>('GET', '/v1/links', { key: shop.test.secret })).body.links,
    ).toHaveLength(1);
  });

  it('lists links newest first, cursor-paged; refuses bad queries; other businesses, live mode see none', async () => {
    const second = (await create(owner, { amount: 300, currency: 'USD', description: 'Sticker' })).body.link;
    const first = await owner.get<{ links: Link[]; has_more: boolean }>('/dashboard/api/links?limit=1');
    expect(first.body).toMatchObject({ links: [{ payment_link_id: second.payment_link_id }], has_more: true });
    const next = await owner.get<{ links: Link[]; has_more: boolean }>(
      `/dashboard/api/links?limit=1&starting_after=${second.payment_link_id}`,
    );
    expect(next.body).toMatchObject({ links: [{ payment_link_id: link.payment_link_id }], has_more: false });
    const back = await owner.get<{ links: Link[] }>(`/dashboard/api/links?ending_before=${link.payment_link_id}`);
    expect(back.body.links.map((l) => l.payment_link_id)).toEqual([second.payment_link_id]);
    for (const q of ['limit=0', 'limit=101', 'starting_after=txn_123', 'colour=blue'])
      expect({ q, status: (await owner.get(`/dashboard/api/links?${q}`)).status }).toEqual({ q, status: 400 });
    expect((await viewer.get<{ links: Link[] }>('/dashboard/api/links')).body.links).toHaveLength(2);
    expect((await otherOwner.get<{ links: Link[] }>('/dashboard/api/links')).body.links).toEqual([]);
    const live = await signedIn(shop.id, 'owner');
    await live.request('PUT', '/dashboard/api/session/mode', { body: { mode: 'live' } });
    expect((await live.get<{ links: Link[] }>('/dashboard/api/links')).body.links).toEqual([]);
  });

  it('a viewer reads links and splits but may not create or deactivate a link (403)', async () => {
    expect(
      await viewer.request('POST', '/dashboard/api/links', {
        body: { amount: 100, currency: 'USD', description: 'x' },
        headers: { 'idempotency-key': 'viewer-1' },
      }),
    ).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(await viewer.request('POST', `/dashboard/api/links/${link.payment_link_id}/deactivate`)).toMatchObject({
      status: 403,
      body: { code: 'forbidden' },
    });
    for (const path of [
      '/dashboard/api/splits/configs',
      '/dashboard/api/splits/ledger',
      '/dashboard/api/splits/ledger/summary',
      '/dashboard/api/splits/invoices',
    ])
      expect({ path, status: (await viewer.get(path)).status }).toEqual({ path, status: 200 });
    const dev = await signedIn(shop.id, 'developer');
    expect((await create(dev, { amount: 100, currency: 'USD', description: 'By a developer' })).status).toBe(201);
    expect(
      (await stack.api<{ links: Link[] }>('GET', `/v1/links/${link.payment_link_id}`, { key: shop.test.secret })).body,
    ).toMatchObject({ active: true });
  });

  it('shows a link payment’s split entries on its payment page, only to its business in its mode', async () => {
    await payThroughLink(stack, link.payment_link_id);
    const found = await linkPaymentWithEntries(owner, link.payment_link_id, 1);
    transactionId = found.transactionId;
    expect(found.splitEntries).toEqual([
      expect.objectContaining({
        kind: 'split',
        transaction_public_id: transactionId,
        creditor_business_id: partner.id,
        debtor_business_id: shop.id,
        amount: 700,
        currency: 'USD',
        status: 'pending',
        invoice_reference: null,
      }),
    ]);
    // The same entry the ledger lists (by its public id).
    const ledger = await stack.api<{ ledger_entries: { public_id: string; amount: number }[] }>(
      'GET',
      '/v1/splits/ledger',
      { key: shop.test.secret },
    );
    expect(ledger.body.ledger_entries.map((e) => e.public_id)).toEqual([found.splitEntries[0].public_id]);
    // The partner is a party to the entry, but the payment is not the partner's: 404, as for another
    // business and for live mode.
    expect((await partnerOwner.get(`/dashboard/api/payments/${transactionId}`)).status).toBe(404);
    expect((await otherOwner.get(`/dashboard/api/payments/${transactionId}`)).status).toBe(404);
    const live = await signedIn(shop.id, 'viewer');
    await live.request('PUT', '/dashboard/api/session/mode', { body: { mode: 'live' } });
    expect((await live.get(`/dashboard/api/payments/${transactionId}`)).status).toBe(404);
  });

  it('shows the ledger, its summary per currency and partner, and the split configs as /v1/splits does', async () => {
    const config = await stack.api<{ split_config: { public_id: string } }>('POST', '/v1/splits/config', {
      key: shop.test.secret,
      body: {
        partner_business_id: partner.id,
        split_type: 'percentage',
        split_value: 250,
        split_role: 'fee',
        currency: 'USD',
      },
    });
    expect(config.status).toBe(200);
    const configs = await owner.get<{ split_configs: { public_id: string }[]; count: number }>(
      '/dashboard/api/splits/configs',
    );
    const apiConfigs = await stack.api<{ split_configs: unknown[] }>('GET', '/v1/splits/config', {
      key: shop.test.secret,
    });
    expect(configs.body).toMatchObject({ result: 'success', count: 1, split_configs: apiConfigs.body.split_configs });
    const ledger = await owner.get<{ ledger_entries: DashboardEntry[]; count: number }>('/dashboard/api/splits/ledger');
    expect(ledger.body).toMatchObject({
      count: 1,
      ledger_entries: [{ kind: 'split', transaction_public_id: transactionId, amount: 700 }],
    });
    const summary = await owner.get<{ summary: unknown; by_counterparty: unknown[] }>(
      '/dashboard/api/splits/ledger/summary',
    );
    const apiSummary = await stack.api<{ summary: unknown }>('GET', '/v1/splits/ledger/summary', {
      key: shop.test.secret,
    });
    expect(summary.body.summary).toEqual(apiSummary.body.summary);
    expect(summary.body).toEqual({
      result: 'success',
      summary: { owed_to_you: [], you_owe: [{ currency: 'USD', total: 700 }] },
      by_counterparty: [{ business_id: partner.id, currency: 'USD', owed_to_you: 0, you_owe: 700 }],
      business_names: {},
    });
    const theirs = await partnerOwner.get<{ summary: unknown; by_counterparty: unknown[] }>(
      '/dashboard/api/splits/ledger/summary',
    );
    expect(theirs.body.by_counterparty).toEqual([
      { business_id: shop.id, currency: 'USD', owed_to_you: 700, you_owe: 0 },
    ]);
    expect(
      (await otherOwner.get<{ ledger_entries: unknown[] }>('/dashboard/api/splits/ledger')).body.ledger_entries,
    ).toEqual([]);
    for (const q of [
      'ledger?limit=0',
      'ledger?starting_after=nope',
      'configs?limit=101',
      'invoices?starting_after=INV-1',
      'invoices?skip=-1',
    ])
      expect({ q, status: (await owner.get(`/dashboard/api/splits/${q}`)).status }).toEqual({ q, status: 400 });
  });

  it('lists settlement invoices, shows one with the entries it nets; another business’s or mode’s is 404', async () => {
    const run = await stack.api<{ invoices: Invoice[] }>('POST', '/admin/v1/settlements/run', {
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    expect(run.status).toBe(200);
    const list = await owner.get<{ invoices: Invoice[]; count: number }>('/dashboard/api/splits/invoices');
    expect(list.body).toMatchObject({
      count: 1,
      invoices: [
        {
          debtor_business_id: shop.id,
          creditor_business_id: partner.id,
          amount: 700,
          currency: 'USD',
          status: 'issued',
        },
      ],
    });
    const ref = list.body.invoices[0].invoice_reference;
    const apiList = await stack.api<{ invoices: Invoice[] }>('GET', '/v1/splits/invoices', { key: shop.test.secret });
    expect(list.body.invoices).toEqual(apiList.body.invoices);
    const detail = await owner.get<{ invoice: Invoice; ledger_entries: DashboardEntry[] }>(
      `/dashboard/api/splits/invoices/${ref}`,
    );
    expect(detail.status).toBe(200);
    expect(detail.body.invoice).toEqual(list.body.invoices[0]);
    expect(detail.body.ledger_entries).toEqual([
      expect.objectContaining({
        transaction_public_id: transactionId,
        amount: 700,
        status: 'invoiced',
        invoice_reference: ref,
      }),
    ]);
    expect(detail.body).toMatchObject({ has_more_entries: false });
    // The entries come a page at a time: past the only one, the page is empty.
    const past = await owner.get<{ ledger_entries: unknown[]; has_more_entries: boolean }>(
      `/dashboard/api/splits/invoices/${ref}?skip=1`,
    );
    expect(past.body).toMatchObject({ ledger_entries: [], has_more_entries: false });
    expect((await owner.get(`/dashboard/api/splits/invoices/${ref}?skip=-1`)).status).toBe(400);
    // The creditor sees it too; the payment page now shows the entry invoiced.
    expect((await partnerOwner.get(`/dashboard/api/splits/invoices/${ref}`)).status).toBe(200);
    const payment = await owner.get<{ split_entries: DashboardEntry[] }>(`/dashboard/api/payments/${transactionId}`);
    expect(payment.body.split_entries).toEqual([
      expect.objectContaining({ status: 'invoiced', invoice_reference: ref }),
    ]);
    expect((await otherOwner.get(`/dashboard/api/splits/invoices/${ref}`)).status).toBe(404);
    expect((await owner.get('/dashboard/api/splits/invoices/not-an-invoice')).status).toBe(404);
    expect((await owner.get(`/dashboard/api/splits/invoices/${ref.replace('-TEST-', '-LIVE-')}`)).status).toBe(404);
    const live = await signedIn(shop.id, 'owner');
    await live.request('PUT', '/dashboard/api/session/mode', { body: { mode: 'live' } });
    expect((await live.get(`/dashboard/api/splits/invoices/${ref}`)).status).toBe(404);
  });

  it('deactivates a link as /v1 does (idempotent); 404 for other business’s, live mode’s, malformed ids', async () => {
    expect((await otherOwner.request('POST', `/dashboard/api/links/${link.payment_link_id}/deactivate`)).status).toBe(
      404,
    );
    expect((await owner.request('POST', '/dashboard/api/links/plink_doesnotexist0000/deactivate')).status).toBe(404);
    expect((await owner.request('POST', '/dashboard/api/links/not-a-link/deactivate')).status).toBe(404);
    const live = await signedIn(shop.id, 'owner');
    await live.request('PUT', '/dashboard/api/session/mode', { body: { mode: 'live' } });
    expect((await live.request('POST', `/dashboard/api/links/${link.payment_link_id}/deactivate`)).status).toBe(404);
    expect(
      (await stack.api<{ active: boolean }>('GET', `/v1/links/${link.payment_link_id}`, { key: shop.test.secret })).body
        .active,
    ).toBe(true);
    const off = await owner.request<{ link: Link }>('POST', `/dashboard/api/links/${link.payment_link_id}/deactivate`);
    expect(off).toMatchObject({
      status: 200,
      body: { link: { payment_link_id: link.payment_link_id, active: false } },
    });
    expect(
      (await owner.request<{ link: Link }>('POST', `/dashboard/api/links/${link.payment_link_id}/deactivate`)).body.link
        .active,
    ).toBe(false);
    expect(
      (await stack.api<{ active: boolean }>('GET', `/v1/links/${link.payment_link_id}`, { key: shop.test.secret })).body
        .active,
    ).toBe(false);
    const audit = await owner.get<{ entries: { action: string; target: string }[] }>('/dashboard/api/audit');
    expect(audit.body.entries[0]).toMatchObject({ action: 'link.deactivate', target: link.payment_link_id });
  });
});
