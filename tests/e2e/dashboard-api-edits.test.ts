import { LedgerRpcPatterns, type RpcReply } from '@payments/contracts';
import { DashboardClient, createDashboardUser } from '../support/dashboard';
import { linkPaymentWithEntries, payThroughLink } from '../support/dashboard-money';
import { Stack } from '../support/stack';

type Link = { payment_link_id: string; description: string; metadata: Record<string, string>; active: boolean };
type Config = {
  public_id: string;
  partner_business_id: number;
  split_type: string;
  split_value: number;
  split_role: string;
  currency: string;
  description: string | null;
  is_active: boolean;
};
type Audit = { entries: { action: string; target: string; details: Record<string, unknown> }[] };
type Named = { business_names: Record<string, string> };

/**
 * The dashboard API's edits over HTTP: a link's description and metadata, split configs (create,
 * edit, deactivate) with /v1's rules and RPCs, payers' names in the splits answers; for each change
 * the role rules (viewer 403; split configs are the owner's), 404 for another business's or mode's
 * id, the page's mode (409) and the audit log.
 */
describe('dashboard API: editing links and split configs, payers’ names', () => {
  jest.setTimeout(60_000);
  let stack: Stack;
  let shop: Awaited<ReturnType<Stack['createBusiness']>>;
  let partner: Awaited<ReturnType<Stack['createBusiness']>>;
  let other: Awaited<ReturnType<Stack['createBusiness']>>;
  let owner: DashboardClient;
  let developer: DashboardClient;
  let viewer: DashboardClient;
  let otherOwner: DashboardClient;
  let liveOwner: DashboardClient;
  let config: Config;

  const signedIn = async (businessId: number, role: 'owner' | 'developer' | 'viewer') => {
    const c = new DashboardClient(stack);
    expect((await c.login(await createDashboardUser(stack, businessId, role))).status).toBe(200);
    return c;
  };
  const key = () => `cfg-${Math.random().toString(36).slice(2)}`;
  const createConfig = (c: DashboardClient, body: unknown, idempotencyKey = key()) =>
    c.request<{ split_config: Config; code?: string; errors?: { field: string; message: string }[] }>(
      'POST',
      '/dashboard/api/splits/configs',
      { body, headers: { 'idempotency-key': idempotencyKey } },
    );
  const apiConfigs = async () =>
    (await stack.api<{ split_configs: Config[] }>('GET', '/v1/splits/config', { key: shop.test.secret })).body
      .split_configs;
  const lastAudit = async () => (await owner.get<Audit>('/dashboard/api/audit')).body.entries[0];

  beforeAll(async () => {
    stack = await Stack.start();
    shop = await stack.createBusiness('Edit Shop');
    partner = await stack.createBusiness('Edit Partner');
    other = await stack.createBusiness('Edit Other');
    owner = await signedIn(shop.id, 'owner');
    developer = await signedIn(shop.id, 'developer');
    viewer = await signedIn(shop.id, 'viewer');
    otherOwner = await signedIn(other.id, 'owner');
    liveOwner = await signedIn(shop.id, 'owner');
    await liveOwner.request('PUT', '/dashboard/api/session/mode', { body: { mode: 'live' } });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('edits a link’s description and metadata as POST /v1/links/{id} does; the audit log keeps no values', async () => {
    const made = await stack.api<{ payment_link_id: string }>('POST', '/v1/links', {
      key: shop.test.secret,
      body: { amount: 2500, currency: 'USD', description: 'Poster', metadata: { order: '17', venue: 'Hall' } },
    });
    const id = made.body.payment_link_id;
    const edit = (c: DashboardClient, body: unknown, linkId = id, headers: Record<string, string> = {}) =>
      c.request<{ link: Link; code?: string; errors?: { field: string; message: string }[] }>(
        'PATCH',
        `/dashboard/api/links/${linkId}`,
        { body, headers },
      );
    const res = await edit(owner, { description: 'Signed poster', metadata: { venue: '', row: 'A' } }, id, {
      'x-dashboard-mode': 'test',
    });
    expect(res).toMatchObject({
      status: 200,
      body: {
        result: 'success',
        link: { payment_link_id: id, description: 'Signed poster', metadata: { order: '17', row: 'A' }, active: true },
      },
    });
    const api = await stack.api<Link>('GET', `/v1/links/${id}`, { key: shop.test.secret });
    expect(api.body).toMatchObject({ description: 'Signed poster', metadata: { order: '17', row: 'A' } });
    const audit = await lastAudit();
    expect(audit).toEqual(
      expect.objectContaining({
        action: 'link.update',
        target: id,
        details: { fields: ['description', 'metadata'], metadata_set: 1, metadata_removed: 1 },
      }),
    );
    expect(JSON.stringify(audit)).not.toMatch(/Signed poster|Hall|"row"/);

    // A developer may; a viewer may not (and nothing changes).
    expect((await edit(developer, { metadata: '' })).body.link.metadata).toEqual({});
    expect(await edit(viewer, { description: 'By a viewer' })).toMatchObject({
      status: 403,
      body: { code: 'forbidden' },
    });
    // The rules of /v1, each field named.
    const cases: [unknown, string][] = [
      [{ description: '' }, 'description'],
      [{ metadata: { qty: 2 } }, 'metadata.qty'],
      [{ metadata: { 'a[0]': 'x' } }, 'metadata.a[0]'],
      [{ amount: 100 }, 'amount'],
    ];
    for (const [body, field] of cases) {
      const r = await edit(owner, body);
      expect({ body, status: r.status, fields: r.body.errors?.map((e) => e.field) }).toEqual({
        body,
        status: 400,
        fields: [field],
      });
    }
    // Another business's, the other mode's, unknown and malformed ids: 404.
    expect((await edit(otherOwner, { description: 'Theirs' })).status).toBe(404);
    expect((await edit(liveOwner, { description: 'Live' })).status).toBe(404);
    expect((await edit(owner, { description: 'x' }, 'plink_doesnotexist0000')).status).toBe(404);
    expect((await edit(owner, { description: 'x' }, 'not-a-link')).status).toBe(404);
    // No CSRF token: 403; a page drawn in live mode while the session is in test mode: 409.
    expect(
      await owner.request('PATCH', `/dashboard/api/links/${id}`, { body: { description: 'x' }, csrf: false }),
    ).toMatchObject({ status: 403, body: { code: 'csrf_token_invalid' } });
    expect(await edit(owner, { description: 'x' }, id, { 'x-dashboard-mode': 'live' })).toMatchObject({
      status: 409,
      body: { code: 'mode_mismatch' },
    });
    expect((await stack.api<Link>('GET', `/v1/links/${id}`, { key: shop.test.secret })).body).toMatchObject({
      description: 'Signed poster',
      metadata: {},
    });
    // An inactive link can still be annotated, as with /v1.
    await owner.request('POST', `/dashboard/api/links/${id}/deactivate`);
    expect((await edit(owner, { metadata: { refunded: 'no' } })).body.link).toMatchObject({
      active: false,
      metadata: { refunded: 'no' },
    });
  });

  it('creates a split config as POST /v1/splits/config does, once per Idempotency-Key; only an owner may', async () => {
    const body = {
      partner_business_id: partner.id,
      split_type: 'percentage',
      split_value: 250,
      split_role: 'fee',
      currency: 'USD',
      description: 'Venue share',
    };
    expect(await owner.request('POST', '/dashboard/api/splits/configs', { body })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'Idempotency-Key', message: 'is required' }] },
    });
    for (const c of [developer, viewer])
      expect(await createConfig(c, body)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(await createConfig(owner, body, key()).then((r) => r.status)).toBe(201);
    const made = (await apiConfigs())[0];
    const again = await createConfig(owner, { ...body, description: 'Second' }, 'cfg-fixed-key');
    expect(again.status).toBe(201);
    config = again.body.split_config;
    expect(config).toMatchObject({
      partner_business_id: partner.id,
      split_type: 'percentage',
      split_value: 250,
      split_role: 'fee',
      currency: 'USD',
      description: 'Second',
      is_active: true,
    });
    const replay = await createConfig(owner, { ...body, description: 'Second' }, 'cfg-fixed-key');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.split_config.public_id).toBe(config.public_id);
    expect((await apiConfigs()).map((c) => c.public_id)).toEqual([config.public_id, made.public_id]);
    expect(await lastAudit()).toEqual(
      expect.objectContaining({
        action: 'split_config.create',
        target: config.public_id,
        details: {
          partner_business_id: partner.id,
          split_type: 'percentage',
          split_value: 250,
          split_role: 'fee',
          currency: 'USD',
        },
      }),
    );

    const cases: [unknown, string][] = [
      [{ ...body, partner_business_id: shop.id }, 'partner_business_id'],
      [{ ...body, partner_business_id: 999_999 }, 'partner_business_id'],
      [{ ...body, split_value: 10_001 }, 'split_value'],
      [{ ...body, currency: 'XXX' }, 'currency'],
      [{ ...body, colour: 'blue' }, 'colour'],
    ];
    for (const [b, field] of cases) {
      const r = await createConfig(owner, b);
      expect({ b, status: r.status, fields: r.body.errors?.map((e) => e.field) }).toEqual({
        b,
        status: 400,
        fields: [field],
      });
    }
    expect(
      await owner.request('POST', '/dashboard/api/splits/configs', {
        body,
        headers: { 'idempotency-key': key(), 'x-dashboard-mode': 'live' },
      }),
    ).toMatchObject({ status: 409, body: { code: 'mode_mismatch' } });
    expect(await apiConfigs()).toHaveLength(2);
  });

  it('edits and deactivates a split config as /v1 does; another business’s or mode’s config is 404', async () => {
    const path = `/dashboard/api/splits/configs/${config.public_id}`;
    const edit = (c: DashboardClient, body: unknown, p = path) =>
      c.request<{ split_config: Config; errors?: { field: string; message: string }[] }>('PATCH', p, { body });
    expect(await edit(owner, { split_value: 300, split_role: 'principal', description: null })).toMatchObject({
      status: 200,
      body: {
        split_config: {
          public_id: config.public_id,
          split_value: 300,
          split_role: 'principal',
          description: null,
          is_active: true,
        },
      },
    });
    expect((await apiConfigs()).find((c) => c.public_id === config.public_id)).toMatchObject({
      split_value: 300,
      split_role: 'principal',
      description: null,
    });
    expect(await lastAudit()).toEqual(
      expect.objectContaining({
        action: 'split_config.update',
        target: config.public_id,
        details: { split_value: 300, split_role: 'principal', description: null },
      }),
    );
    const refused = await edit(owner, { currency: 'ZAR' });
    expect(refused).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'currency', message: expect.stringContaining('cannot be changed') }] },
    });
    expect((await edit(owner, { split_type: 'percentage', split_value: 20_000 })).status).toBe(400);
    for (const c of [developer, viewer]) {
      expect(await edit(c, { split_value: 1 })).toMatchObject({ status: 403, body: { code: 'forbidden' } });
      expect(await c.request('POST', `${path}/deactivate`)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    }
    for (const c of [otherOwner, liveOwner]) {
      expect((await edit(c, { split_value: 1 })).status).toBe(404);
      expect((await c.request('POST', `${path}/deactivate`)).status).toBe(404);
    }
    expect((await edit(owner, { split_value: 1 }, '/dashboard/api/splits/configs/not-a-uuid')).status).toBe(404);
    expect(
      (await owner.request('POST', '/dashboard/api/splits/configs/00000000-0000-4000-8000-000000000000/deactivate'))
        .status,
    ).toBe(404);
    expect((await apiConfigs()).find((c) => c.public_id === config.public_id)).toMatchObject({
      split_value: 300,
      is_active: true,
    });

    const off = await owner.request<{ split_config: Config }>('POST', `${path}/deactivate`);
    expect(off).toMatchObject({
      status: 200,
      body: { split_config: { public_id: config.public_id, is_active: false } },
    });
    expect(
      (await owner.request<{ split_config: Config }>('POST', `${path}/deactivate`)).body.split_config.is_active,
    ).toBe(false);
    expect(await lastAudit()).toEqual(
      expect.objectContaining({ action: 'split_config.deactivate', target: config.public_id }),
    );
    expect((await apiConfigs()).find((c) => c.public_id === config.public_id)).toMatchObject({ is_active: false });
    // A deactivated config cannot change (the service's rule): 400, never a 500.
    expect(await edit(owner, { split_value: 5 })).toMatchObject({ status: 400, body: { code: 'validation_error' } });
  });

  it('names a business only to those it pays through its split terms, never one a business typed itself', async () => {
    // A config naming no business at all, made past the gateway's check, in a currency no payment uses.
    const client = stack.rpcClient('split-ledger-service');
    const ctx = { request_id: 'req_names', business_id: shop.id, mode: 'test', key_type: 'secret' };
    const reply = await client.request<RpcReply<Config>>(LedgerRpcPatterns.SplitConfigsCreate, {
      ctx,
      body: {
        partner_business_id: 2_000_000_000,
        split_type: 'fixed',
        split_value: 5,
        split_role: 'fee',
        currency: 'ZAR',
        description: null,
      },
    });
    client.close();
    expect(reply.ok).toBe(true);
    // Partners a business typed in (its configs, its links) are ids: anyone may type any id.
    const configs = await viewer.get<{ split_configs: Config[] } & Partial<Named>>('/dashboard/api/splits/configs');
    expect(configs.body.split_configs.map((c) => c.partner_business_id)).toContain(2_000_000_000);
    expect(configs.body.business_names).toBeUndefined();
    expect((await viewer.get<Partial<Named>>('/dashboard/api/links')).body.business_names).toBeUndefined();

    const link = await stack.api<{ payment_link_id: string }>('POST', '/v1/links', {
      key: shop.test.secret,
      body: {
        amount: 1000,
        currency: 'USD',
        description: 'Named',
        splits: [{ business_id: partner.id, type: 'fixed', value: 100 }],
      },
    });
    await payThroughLink(stack, link.body.payment_link_id);
    const { transactionId } = await linkPaymentWithEntries(owner, link.body.payment_link_id, 1);
    // The shop pays the partner: the shop sees no name for it (it typed the id itself)…
    expect(
      (await viewer.get<Partial<Named>>(`/dashboard/api/payments/${transactionId}`)).body.business_names,
    ).toBeUndefined();
    expect((await viewer.get<Named>('/dashboard/api/splits/ledger')).body.business_names).toEqual({});
    expect((await viewer.get<Named>('/dashboard/api/splits/ledger/summary')).body.business_names).toEqual({});
    // …and the partner, whom the shop chose to pay, sees the shop's name.
    const partnerOwner = await signedIn(partner.id, 'viewer');
    expect((await partnerOwner.get<Named>('/dashboard/api/splits/ledger')).body.business_names).toEqual({
      [shop.id]: 'Edit Shop',
    });
    expect((await partnerOwner.get<Named>('/dashboard/api/splits/ledger/summary')).body.business_names).toEqual({
      [shop.id]: 'Edit Shop',
    });

    expect(
      (
        await stack.api('POST', '/admin/v1/settlements/run', {
          headers: { authorization: `Bearer ${stack.adminToken}` },
        })
      ).status,
    ).toBe(200);
    // An invoice's direction says nothing about who chose to pay (netting can turn it): the list names no one.
    const invoices = await viewer.get<{ invoices: { invoice_reference: string }[] } & Partial<Named>>(
      '/dashboard/api/splits/invoices',
    );
    expect(invoices.body.business_names).toBeUndefined();
    const ref = invoices.body.invoices[0].invoice_reference;
    expect((await viewer.get<Named>(`/dashboard/api/splits/invoices/${ref}`)).body.business_names).toEqual({});
    expect(
      (await partnerOwner.get<Partial<Named>>('/dashboard/api/splits/invoices')).body.business_names,
    ).toBeUndefined();
    expect((await partnerOwner.get<Named>(`/dashboard/api/splits/invoices/${ref}`)).body.business_names).toEqual({
      [shop.id]: 'Edit Shop',
    });
    // Another business with nothing to do with these sees none of the names.
    expect((await otherOwner.get<Named>('/dashboard/api/splits/ledger')).body.business_names).toEqual({});
  });
});
