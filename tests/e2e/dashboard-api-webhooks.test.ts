import { Webhook } from 'standardwebhooks';
import { DashboardClient, TEST_PASSWORD, createDashboardUser, type Role } from '../support/dashboard';
import { payAndSettle } from '../support/payments';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';

type Body = Record<string, unknown>;
interface Endpoint {
  id: number;
  url: string;
  description: string;
  events: string[];
  is_active: boolean;
}
const API = '/dashboard/api';

/**
 * The dashboard API of the webhooks, events and settings pages and of changing users, over HTTP:
 * what each does matches /v1, who may do it (viewer 403 on writes), another business's ids 404,
 * and 400s naming each bad field.
 */
describe('dashboard API: webhooks, events, settings, users', () => {
  const receiver = new WebhookReceiver(selfSignedCertificate());
  let stack: Stack;
  let shop: Awaited<ReturnType<Stack['createBusiness']>>;
  let other: Awaited<ReturnType<Stack['createBusiness']>>;
  const as: Partial<Record<Role, DashboardClient>> = {};
  let theirEndpoint: number;

  const signedIn = async (role: Role, businessId = shop.id): Promise<DashboardClient> => {
    const c = new DashboardClient(stack);
    expect((await c.login(await createDashboardUser(stack, businessId, role))).status).toBe(200);
    return c;
  };

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, receiver.dispatcherEnv());
    shop = await stack.createBusiness('Hooks Shop');
    other = await stack.createBusiness('Other Hooks Shop');
    for (const role of ['owner', 'developer', 'viewer'] as const) as[role] = await signedIn(role);
    expect(
      (
        await stack.api('POST', '/v1/callback', {
          key: other.test.secret,
          body: { url: receiver.url('/theirs'), events: ['transaction.success'] },
        })
      ).status,
    ).toBe(200);
    theirEndpoint = (
      await stack.api<{ callbacks: { id: number }[] }>('GET', '/v1/callback/list', { key: other.test.secret })
    ).body.callbacks[0].id;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  it('refuses every write to a viewer (403), and owner-only writes to a developer', async () => {
    const writes: [string, string, unknown?][] = [
      ['POST', `${API}/webhooks?mode=test`, { url: receiver.url('/v'), events: ['refund.success'] }],
      ['PATCH', `${API}/webhooks/1`, { is_active: false }],
      ['POST', `${API}/webhooks/1/test`],
      ['POST', `${API}/webhooks/1/secret/roll`],
      ['DELETE', `${API}/webhooks/1`],
      ['PUT', `${API}/settings/redirect_origins`, { redirect_origins: [] }],
      ['PUT', `${API}/settings/connections/paynow?mode=test`, { integration_id: '1', integration_key: 'k' }],
      ['DELETE', `${API}/settings/connections/paynow?mode=test`],
      ['PATCH', `${API}/users/1`, { role: 'viewer' }],
      ['DELETE', `${API}/users/1`],
    ];
    for (const [method, path, body] of writes) {
      const r = await as.viewer!.request(method, path, { body });
      expect({ method, path, status: r.status, code: r.body.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'forbidden',
      });
    }
    for (const [method, path, body] of writes.slice(5)) {
      const r = await as.developer!.request(method, path, { body });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 403 });
    }
    for (const path of ['/webhooks', '/events', '/settings'])
      expect({ path, status: (await as.viewer!.get(`${API}${path}`)).status }).toEqual({ path, status: 200 });
    expect((await as.developer!.get(`${API}/users`)).status).toBe(403);
  });

  it('adds an endpoint by /v1’s rules, shows its secret once, lists it as /v1 does (never its secret)', async () => {
    const dev = as.developer!;
    const bad = await dev.request('POST', `${API}/webhooks?mode=test`, {
      body: { url: 42, events: 'refund.success', extra: true },
    });
    expect(bad).toMatchObject({ status: 400, body: { code: 'validation_error' } });
    expect((bad.body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['events', 'extra', 'url']);
    const unknown = await dev.request('POST', `${API}/webhooks?mode=test`, {
      body: { url: receiver.url('/a'), events: ['refund.done'] },
    });
    expect(unknown).toMatchObject({ status: 400, body: { errors: [{ field: 'events' }] } });
    expect(
      await dev.request('POST', `${API}/webhooks`, { body: { url: receiver.url('/a'), events: ['refund.success'] } }),
    ).toMatchObject({ status: 400, body: { errors: [{ field: 'mode' }] } });
    expect(
      await dev.request('POST', `${API}/webhooks?mode=live`, {
        body: { url: receiver.url('/a'), events: ['refund.success'] },
      }),
    ).toMatchObject({ status: 409, body: { code: 'mode_mismatch' } });
    const keyed = await dev.request('POST', `${API}/webhooks?mode=test`, {
      body: { url: receiver.url('/a'), events: ['refund.success'] },
      headers: { 'idempotency-key': 'add-1' },
    });
    expect(keyed).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'Idempotency-Key', message: 'is not accepted here' }] },
    });

    const added = await dev.request<{ endpoint: Endpoint; secret: string }>('POST', `${API}/webhooks?mode=test`, {
      body: { url: receiver.url('/a'), events: ['refund.success', 'transaction.success'], description: 'orders' },
    });
    expect(added.status).toBe(201);
    expect(added.body.secret).toMatch(/^whsec_/);
    expect(added.body.endpoint).toMatchObject({
      url: receiver.url('/a'),
      events: ['refund.success', 'transaction.success'],
      description: 'orders',
      is_active: true,
    });
    const v1 = await stack.api('GET', `/v1/callback/${added.body.endpoint.id}/secret`, { key: shop.test.secret });
    expect(v1.body.secret).toBe(added.body.secret);
    const list = await dev.get<{ endpoints: Endpoint[]; event_types: string[] }>(`${API}/webhooks`);
    expect(list.body.endpoints.map((e) => e.id)).toContain(added.body.endpoint.id);
    expect(list.body.event_types).toContain('refund.success');
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const audit = await as.owner!.get<{ entries: { action: string; target: string }[] }>(`${API}/audit`);
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({ action: 'webhook.create', target: String(added.body.endpoint.id) }),
    );
    expect(JSON.stringify(audit.body)).not.toContain('whsec_');
  });

  it('edits, disables, enables, deletes an endpoint as /v1/callback does; another business’s id is 404', async () => {
    const dev = as.developer!;
    const { body } = await dev.request<{ endpoint: Endpoint }>('POST', `${API}/webhooks?mode=test`, {
      body: { url: receiver.url('/b'), events: ['refund.success'] },
    });
    const id = body.endpoint.id;
    const edited = await dev.request<{ endpoint: Endpoint }>('PATCH', `${API}/webhooks/${id}`, {
      body: { url: receiver.url('/b2'), events: ['payment.created'], description: 'moved' },
    });
    expect(edited.body.endpoint).toMatchObject({
      url: receiver.url('/b2'),
      events: ['payment.created'],
      description: 'moved',
    });
    expect(
      (await dev.request<{ endpoint: Endpoint }>('PATCH', `${API}/webhooks/${id}`, { body: { is_active: false } })).body
        .endpoint.is_active,
    ).toBe(false);
    expect(
      (await stack.api<{ callback: Endpoint }>('GET', `/v1/callback/${id}`, { key: shop.test.secret })).body.callback,
    ).toMatchObject({ url: receiver.url('/b2'), is_active: false });
    expect(await dev.request('PATCH', `${API}/webhooks/${id}`, { body: { is_active: 'no', url: 7 } })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'url' }, { field: 'is_active' }] },
    });
    expect(
      (await dev.request<{ endpoint: Endpoint }>('PATCH', `${API}/webhooks/${id}`, { body: { is_active: true } })).body
        .endpoint.is_active,
    ).toBe(true);
    for (const [method, path] of [
      ['PATCH', `/webhooks/${theirEndpoint}`],
      ['POST', `/webhooks/${theirEndpoint}/test`],
      ['POST', `/webhooks/${theirEndpoint}/secret/roll`],
      ['DELETE', `/webhooks/${theirEndpoint}`],
      ['PATCH', '/webhooks/nope'],
    ]) {
      const r = await dev.request(method, `${API}${path}`, {
        body: method === 'PATCH' ? { is_active: false } : undefined,
      });
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
    }
    // Deleted as DELETE /v1/callback/{id} deletes it: gone from both lists, and a second delete is 404.
    expect(await dev.request('DELETE', `${API}/webhooks/${id}`)).toMatchObject({
      status: 200,
      body: { result: 'success', deleted: true },
    });
    expect((await dev.get<{ endpoints: Endpoint[] }>(`${API}/webhooks`)).body.endpoints.map((e) => e.id)).not.toContain(
      id,
    );
    expect((await stack.api('GET', `/v1/callback/${id}`, { key: shop.test.secret })).status).toBe(404);
    expect((await dev.request('DELETE', `${API}/webhooks/${id}`)).status).toBe(404);
    const audit = await as.owner!.get<{ entries: { action: string; target: string }[] }>(`${API}/audit`);
    expect(audit.body.entries.slice(0, 4).map((e) => e.action)).toEqual([
      'webhook.delete',
      'webhook.enable',
      'webhook.disable',
      'webhook.update',
    ]);
    expect(audit.body.entries[0].target).toBe(String(id));
  });

  it('sends a test ping, and after a roll both secrets sign every webhook until the overlap ends', async () => {
    const dev = as.developer!;
    const { body } = await dev.request<{ endpoint: Endpoint; secret: string }>('POST', `${API}/webhooks?mode=test`, {
      body: { url: receiver.url('/ping'), events: ['refund.success'] },
    });
    const id = body.endpoint.id;
    const ping = await dev.request('POST', `${API}/webhooks/${id}/test`);
    expect(ping.body).toMatchObject({ status_code: 200, error: null, delivery_id: expect.stringMatching(/^dlv_/) });
    const first = receiver.at('/ping')[0];
    expect(new Webhook(body.secret).verify(first.body, first.headers)).toMatchObject({ event: 'ping' });

    const rolled = await dev.request<{ secret: string; previous_secret_expires_at: string }>(
      'POST',
      `${API}/webhooks/${id}/secret/roll`,
    );
    expect(rolled.status).toBe(200);
    expect(rolled.body.secret).toMatch(/^whsec_/);
    expect(rolled.body.secret).not.toBe(body.secret);
    expect(Date.parse(rolled.body.previous_secret_expires_at)).toBeGreaterThan(Date.now());
    await dev.request('POST', `${API}/webhooks/${id}/test`);
    const second = receiver.at('/ping')[1];
    expect(second.headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [body.secret, rolled.body.secret])
      expect(new Webhook(secret).verify(second.body, second.headers)).toMatchObject({ event: 'ping' });
    // The delivery log lists the pings; the audit log the test and the roll, without a secret.
    expect(
      (await dev.get<{ deliveries: { event: string }[] }>(`${API}/webhooks/${id}/deliveries`)).body.deliveries.map(
        (d) => d.event,
      ),
    ).toEqual(['ping', 'ping']);
    const audit = await as.owner!.get<{ entries: { action: string }[] }>(`${API}/audit`);
    expect(audit.body.entries.slice(0, 3).map((e) => e.action)).toEqual([
      'webhook.test',
      'webhook.secret.roll',
      'webhook.test',
    ]);
    expect(JSON.stringify(audit.body)).not.toContain('whsec_');
  });

  it('browses events as /v1/events does (type filter, cursor paging), shows an event with its deliveries', async () => {
    const dev = as.developer!;
    await dev.request('POST', `${API}/webhooks?mode=test`, {
      body: { url: receiver.url('/events'), events: ['transaction.success'] },
    });
    const txn = (await payAndSettle(stack, shop.test.secret, 'evt-page-1', { amount: 2500 })).transaction_id as string;
    await payAndSettle(stack, shop.test.secret, 'evt-page-2', { amount: 1000 });
    const successes = await waitFor('both transaction.success events', async () => {
      const r = await as.viewer!.get<{ events: { id: string; event: string; data: Body }[]; has_more: boolean }>(
        `${API}/events?type=transaction.success`,
      );
      return r.body.events.length === 2 ? r.body.events : undefined;
    });
    expect(successes.every((e) => e.event === 'transaction.success')).toBe(true);
    const v1 = await stack.api<{ events: { id: string }[] }>('GET', '/v1/events?type=transaction.success', {
      key: shop.test.secret,
    });
    expect(successes.map((e) => e.id)).toEqual(v1.body.events.map((e) => e.id));
    const page1 = await as.viewer!.get<{ events: { id: string }[]; has_more: boolean }>(
      `${API}/events?type=transaction.success&limit=1`,
    );
    expect(page1.body).toMatchObject({ events: [{ id: successes[0].id }], has_more: true });
    const page2 = await as.viewer!.get<{ events: { id: string }[]; has_more: boolean }>(
      `${API}/events?type=transaction.success&limit=1&starting_after=${successes[0].id}`,
    );
    expect(page2.body).toMatchObject({ events: [{ id: successes[1].id }], has_more: false });
    expect(await as.viewer!.get(`${API}/events?type=bogus&limit=0`)).toMatchObject({
      status: 400,
      body: {
        errors: expect.arrayContaining([
          expect.objectContaining({ field: 'type' }),
          expect.objectContaining({ field: 'limit' }),
        ]),
      },
    });

    const mine = successes.find((e) => e.data.transaction_id === txn)!;
    const detail = await waitFor('the event’s delivery to succeed', async () => {
      const r = await as.viewer!.get<{
        event: Body;
        deliveries: { status: string; callback_url: string; last_status_code: number }[];
      }>(`${API}/events/${mine.id}`);
      const done = r.body.deliveries?.length > 0 && r.body.deliveries.every((d) => d.status === 'succeeded');
      return done ? r.body : undefined;
    });
    expect(detail.event).toMatchObject({ id: mine.id, event: 'transaction.success', data: { transaction_id: txn } });
    // One delivery per endpoint subscribed to the event: the one added above, and this test's.
    expect(detail.deliveries.map((d) => d.callback_url).sort()).toEqual([receiver.url('/a'), receiver.url('/events')]);
    expect(detail.deliveries).toContainEqual(
      expect.objectContaining({
        callback_url: receiver.url('/events'),
        status: 'succeeded',
        attempts: 1,
        last_status_code: 200,
      }),
    );
    // Another business's event, and ids that cannot be events: 404.
    const theirs = (await payAndSettle(stack, other.test.secret, 'their-evt')).transaction_id as string;
    const theirEvent = await waitFor('their event', async () =>
      (
        await stack.api<{ events: { id: string; data: Body }[] }>('GET', '/v1/events', { key: other.test.secret })
      ).body.events.find((e) => e.data.transaction_id === theirs),
    );
    expect((await as.viewer!.get(`${API}/events/${theirEvent.id}`)).status).toBe(404);
    expect((await as.viewer!.get(`${API}/events/not-an-event`)).status).toBe(404);
  });

  it('redirect origins: the same rules and list as /v1/settings; owners only change them', async () => {
    const owner = as.owner!;
    const bad = await owner.request('PUT', `${API}/settings/redirect_origins`, {
      body: { redirect_origins: ['https://ok.example', 'http://shop.example/path'] },
    });
    const v1Bad = await stack.api('PUT', '/v1/settings/redirect_origins', {
      key: shop.test.secret,
      body: { redirect_origins: ['https://ok.example', 'http://shop.example/path'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(v1Bad.body.errors);
    const saved = await owner.request('PUT', `${API}/settings/redirect_origins`, {
      body: { redirect_origins: ['https://Shop.Example', 'https://shop.example', 'http://localhost:5173'] },
    });
    expect(saved.body.redirect_origins).toEqual(['https://shop.example', 'http://localhost:5173']);
    expect(
      (await stack.api('GET', '/v1/settings/redirect_origins', { key: shop.test.secret })).body.redirect_origins,
    ).toEqual(['https://shop.example', 'http://localhost:5173']);
    expect((await as.viewer!.get<{ redirect_origins: string[] }>(`${API}/settings`)).body.redirect_origins).toEqual([
      'https://shop.example',
      'http://localhost:5173',
    ]);
  });

  it('connections: set/removed as /v1/connections does, in the page’s mode; never answers credentials', async () => {
    const owner = as.owner!;
    const credentials = { integration_id: '9188441201', integration_key: 'dash-secret-key-3e9fed89' };
    expect(
      (await owner.request('PUT', `${API}/settings/connections/nope?mode=test`, { body: credentials })).status,
    ).toBe(404);
    expect(
      await owner.request('PUT', `${API}/settings/connections/paynow?mode=live`, { body: credentials }),
    ).toMatchObject({ status: 409, body: { code: 'mode_mismatch' } });
    const bad = await owner.request('PUT', `${API}/settings/connections/paynow?mode=test`, {
      body: { integration_id: '12a4', extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect((bad.body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual([
      'extra',
      'integration_id',
      'integration_key',
    ]);
    const put = await owner.request<{ connection: { account: string } }>(
      'PUT',
      `${API}/settings/connections/paynow?mode=test`,
      { body: credentials },
    );
    expect(put.status).toBe(200);
    expect(put.body.connection.account).toBe('int_…1201');
    const v1 = await stack.api<{ connections: { provider: string; account: string }[] }>('GET', '/v1/connections', {
      key: shop.test.secret,
    });
    expect(v1.body.connections).toEqual([expect.objectContaining({ provider: 'paynow', account: 'int_…1201' })]);
    const settings = await as.viewer!.get<{
      providers: { provider: string; connection: { account: string } | null }[];
    }>(`${API}/settings`);
    expect(settings.body.providers.map((p) => [p.provider, p.connection?.account ?? null])).toEqual([
      ['paynow', 'int_…1201'],
      ['dpo', null],
      ['ozow', null],
    ]);
    const audit = await owner.get<{ entries: { action: string; target: string }[] }>(`${API}/audit`);
    expect(audit.body.entries[0]).toMatchObject({ action: 'connection.set', target: 'paynow' });
    for (const answer of [put.body, settings.body, audit.body])
      expect(JSON.stringify(answer)).not.toContain(credentials.integration_key);
    expect((await owner.request('DELETE', `${API}/settings/connections/paynow?mode=test`)).status).toBe(200);
    expect(
      (await stack.api<{ connections: unknown[] }>('GET', '/v1/connections', { key: shop.test.secret })).body
        .connections,
    ).toEqual([]);
    expect((await owner.request('DELETE', `${API}/settings/connections/paynow?mode=test`)).status).toBe(404);
  });

  it('owners change another user’s role (applies at once), never their own; a bad role names the field', async () => {
    const owner = as.owner!;
    const me = (await owner.get<{ user: { id: number } }>(`${API}/session`)).body.user.id;
    const viewer = await signedIn('viewer');
    const viewerId = (await viewer.get<{ user: { id: number } }>(`${API}/session`)).body.user.id;
    expect(
      (
        await viewer.request('POST', `${API}/webhooks?mode=test`, {
          body: { url: receiver.url('/r'), events: ['refund.success'] },
        })
      ).status,
    ).toBe(403);
    expect(await owner.request('PATCH', `${API}/users/${viewerId}`, { body: { role: 'king' } })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'role', message: 'must be one of owner, developer, viewer' }] },
    });
    const changed = await owner.request<{ user: { role: string } }>('PATCH', `${API}/users/${viewerId}`, {
      body: { role: 'developer' },
    });
    expect(changed.body.user.role).toBe('developer');
    expect(
      (
        await viewer.request('POST', `${API}/webhooks?mode=test`, {
          body: { url: receiver.url('/r'), events: ['refund.success'] },
        })
      ).status,
    ).toBe(201);
    expect(await owner.request('PATCH', `${API}/users/${me}`, { body: { role: 'viewer' } })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'id' }] },
    });
    expect(await owner.request('DELETE', `${API}/users/${me}`)).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'id' }] },
    });
    const theirs = await signedIn('viewer', other.id);
    const theirId = (await theirs.get<{ user: { id: number } }>(`${API}/session`)).body.user.id;
    expect((await owner.request('PATCH', `${API}/users/${theirId}`, { body: { role: 'owner' } })).status).toBe(404);
    expect((await owner.request('DELETE', `${API}/users/${theirId}`)).status).toBe(404);
    expect((await owner.request('DELETE', `${API}/users/0`)).status).toBe(404);
    const audit = await owner.get<{ entries: { action: string; details: Body }[] }>(`${API}/audit`);
    expect(audit.body.entries.find((e) => e.action === 'user.role')).toMatchObject({
      details: { from: 'viewer', to: 'developer' },
    });
  });

  it('two owners demoting each other at once leave the business exactly one owner', async () => {
    const biz = await stack.createBusiness('Two Owners');
    const a = await signedIn('owner', biz.id);
    const b = await signedIn('owner', biz.id);
    const idOf = async (c: DashboardClient) => (await c.get<{ user: { id: number } }>(`${API}/session`)).body.user.id;
    const [idA, idB] = [await idOf(a), await idOf(b)];
    const answers = await Promise.all([
      a.request('PATCH', `${API}/users/${idB}`, { body: { role: 'viewer' } }),
      b.request('PATCH', `${API}/users/${idA}`, { body: { role: 'viewer' } }),
    ]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([400, 403]).toContain(statuses[1]);
    const winner = answers[0].status === 200 ? a : b;
    const users = (await winner.get<{ users: { role: string }[] }>(`${API}/users`)).body.users;
    expect(users.filter((u) => u.role === 'owner')).toHaveLength(1);
  });

  it('removing a user ends their sessions (401 next), keeps their audit entries, and frees their e-mail', async () => {
    const owner = as.owner!;
    const email = await createDashboardUser(stack, shop.id, 'developer');
    const tabs = [new DashboardClient(stack), new DashboardClient(stack)];
    for (const t of tabs) expect((await t.login(email)).status).toBe(200);
    const id = (await tabs[0].get<{ user: { id: number } }>(`${API}/session`)).body.user.id;
    expect(
      (
        await tabs[0].request('POST', `${API}/webhooks?mode=test`, {
          body: { url: receiver.url('/gone'), events: ['refund.success'] },
        })
      ).status,
    ).toBe(201);
    const removed = await owner.request<{ sessions_ended: number }>('DELETE', `${API}/users/${id}`);
    expect(removed.body).toMatchObject({ result: 'success', sessions_ended: 2 });
    for (const t of tabs)
      expect(await t.get(`${API}/webhooks`)).toMatchObject({ status: 401, body: { code: 'not_signed_in' } });
    expect((await new DashboardClient(stack).login(email)).status).toBe(401);
    expect((await owner.get<{ users: { id: number }[] }>(`${API}/users`)).body.users.map((u) => u.id)).not.toContain(
      id,
    );
    const audit = await owner.get<{ entries: { action: string; actor: string; target: string }[] }>(`${API}/audit`);
    expect(audit.body.entries[0]).toMatchObject({ action: 'user.remove', target: email });
    expect(audit.body.entries).toContainEqual(expect.objectContaining({ action: 'webhook.create', actor: email }));
    expect(
      (await owner.request('POST', `${API}/users`, { body: { email, password: TEST_PASSWORD, role: 'viewer' } }))
        .status,
    ).toBe(201);
  });
});
