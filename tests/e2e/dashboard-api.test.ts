import { Topics } from '@payments/contracts';
import { DashboardClient, TEST_PASSWORD, createDashboardUser } from '../support/dashboard';
import { payAndSettle } from '../support/payments';
import { Stack } from '../support/stack';
import { produceHistory } from '../support/synthetic-events';
import { waitFor } from '../support/wait';

/** The dashboard's API over HTTP: sessions, CSRF, roles, another business's ids, refunds shared with /v1. */
describe('dashboard API', () => {
  let stack: Stack;
  let shop: Awaited<ReturnType<Stack['createBusiness']>>;
  let other: Awaited<ReturnType<Stack['createBusiness']>>;
  let ownerEmail: string;
  let payment: string;

  beforeAll(async () => {
    stack = await Stack.start();
    shop = await stack.createBusiness('Dash Shop');
    other = await stack.createBusiness('Other Shop');
    ownerEmail = await createDashboardUser(stack, shop.id, 'owner');
    payment = (await payAndSettle(stack, shop.test.secret, 'dash-1', { amount: 5000, email: 'Buyer@Example.com' }))
      .transaction_id as string;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('creates users through the admin API only, one account per e-mail', async () => {
    const anon = await stack.api('POST', `/admin/v1/businesses/${shop.id}/users`, {
      body: { email: 'x@example.com', password: TEST_PASSWORD, role: 'owner' },
    });
    expect(anon.status).toBe(401);
    const admin = { authorization: `Bearer ${stack.adminToken}` };
    const again = await stack.api('POST', `/admin/v1/businesses/${shop.id}/users`, {
      headers: admin,
      body: { email: ownerEmail.toUpperCase(), password: TEST_PASSWORD, role: 'viewer' },
    });
    expect(again).toMatchObject({ status: 409, body: { code: 'email_taken' } });
    const bad = await stack.api('POST', `/admin/v1/businesses/${shop.id}/users`, {
      headers: admin,
      body: { email: 'nope', password: 'short', role: 'king', extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'extra', message: 'is not a recognised field' },
      { field: 'email', message: 'must be an e-mail address (at most 254 characters)' },
      { field: 'password', message: 'must be 12 to 200 characters' },
      { field: 'role', message: 'must be one of owner, developer, viewer' },
    ]);
    const missing = await stack.api('POST', '/admin/v1/businesses/999999/users', {
      headers: admin,
      body: { email: 'ghost@example.com', password: TEST_PASSWORD, role: 'owner' },
    });
    expect(missing.status).toBe(404);
  });

  it('signs in with an HttpOnly SameSite cookie; the same 401 for an unknown e-mail and a wrong password', async () => {
    const c = new DashboardClient(stack);
    const wrong = await c.login(ownerEmail, 'not the password at all');
    const unknown = await c.login('nobody-here@example.com');
    expect(wrong).toMatchObject({
      status: 401,
      body: { code: 'invalid_credentials', message: 'wrong e-mail or password' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe(wrong.body.message);
    const ok = await c.login(ownerEmail.toUpperCase());
    expect(ok.status).toBe(200);
    expect(ok.headers.get('set-cookie')).toMatch(
      /^dashboard_session=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Strict$/,
    );
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(ok.body).toMatchObject({
      mode: 'test',
      user: { email: ownerEmail, role: 'owner', business_id: shop.id, business_name: 'Dash Shop' },
    });
    expect(JSON.stringify(ok.body)).not.toMatch(/sk_(test|live)_|whsec_|scrypt/);
  });

  it('lists payments of the session’s business and mode, with filters; another business’s id is 404', async () => {
    const c = new DashboardClient(stack);
    await c.login(ownerEmail);
    const list = await c.get<{ payments: { transaction_id: string }[] }>(
      '/dashboard/api/payments?status=success&method=ecocash&q=buyer@example.com',
    );
    expect(list.status).toBe(200);
    expect(list.body.payments.map((p) => p.transaction_id)).toEqual([payment]);
    expect((await c.get<{ payments: unknown[] }>('/dashboard/api/payments?method=innbucks')).body.payments).toEqual([]);
    expect((await c.get('/dashboard/api/payments?status=bogus')).status).toBe(400);
    const theirs = (await payAndSettle(stack, other.test.secret, 'other-1')).transaction_id as string;
    expect((await c.get(`/dashboard/api/payments/${theirs}`)).status).toBe(404);
    expect(
      (
        await c.request('POST', `/dashboard/api/payments/${theirs}/refunds`, {
          body: { amount: 1 },
          headers: { 'idempotency-key': 'theirs-1' },
        })
      ).status,
    ).toBe(404);
    // Live mode: the test payment is not there.
    expect((await c.request('PUT', '/dashboard/api/session/mode', { body: { mode: 'live' } })).body.mode).toBe('live');
    expect((await c.get<{ payments: unknown[] }>('/dashboard/api/payments')).body.payments).toEqual([]);
    expect((await c.get(`/dashboard/api/payments/${payment}`)).status).toBe(404);
  });

  it('refunds part of a payment: the same refund the API lists; the audit log records it', async () => {
    const c = new DashboardClient(stack);
    await c.login(ownerEmail);
    const body = { amount: 1200, reason: 'one item returned' };
    const keyless = await c.request('POST', `/dashboard/api/payments/${payment}/refunds`, { body });
    expect(keyless).toMatchObject({
      status: 400,
      body: { code: 'validation_error', errors: [{ field: 'Idempotency-Key', message: 'is required' }] },
    });
    // The merchant's own API call with the same key does not meet the dashboard's (scopes of their own).
    const apiSameKey = await stack.api('POST', '/v1/transactions/refund', {
      key: shop.test.secret,
      headers: { 'idempotency-key': 'refund-dash-1' },
      body: { transaction_reference: 'no-such-ref' },
    });
    expect(apiSameKey.status).toBe(404);
    const headers = { 'idempotency-key': 'refund-dash-1' };
    const refund = await c.request<{ refund: { refund_id: string; amount: number } }>(
      'POST',
      `/dashboard/api/payments/${payment}/refunds`,
      { body, headers },
    );
    expect(refund.status).toBe(201);
    // Pressing Refund again after an unknown outcome: the first refund's answer, not a second refund.
    const again = await c.request<{ refund: { refund_id: string } }>(
      'POST',
      `/dashboard/api/payments/${payment}/refunds`,
      { body, headers },
    );
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.refund.refund_id).toBe(refund.body.refund.refund_id);
    const api = await stack.api<{ refunds: { refund_id: string; amount: number; reason: string }[] }>(
      'GET',
      '/v1/transactions/refunds?transaction_reference=dash-1',
      { key: shop.test.secret },
    );
    expect(api.body.refunds).toEqual([
      expect.objectContaining({ refund_id: refund.body.refund.refund_id, amount: 1200, reason: 'one item returned' }),
    ]);
    const detail = await c.get<{ refunds: unknown[]; refundable: number }>(`/dashboard/api/payments/${payment}`);
    expect(detail.body.refunds).toHaveLength(1);
    expect(detail.body.refundable).toBe(3800);
    // The timeline: the payment's events and its refund's, from the dispatcher, oldest first.
    const timeline = await waitFor('the refund’s event on the payment page', async () => {
      const r = await c.get<{ events: { event: string }[] }>(`/dashboard/api/payments/${payment}`);
      const names = r.body.events.map((e) => e.event);
      return names.includes('refund.pending') ? names : undefined;
    });
    expect(timeline).toEqual(
      expect.arrayContaining([
        'payment.created',
        'transaction.processing',
        'transaction.success',
        'payment.completed',
        'refund.pending',
      ]),
    );
    expect(timeline.indexOf('transaction.success')).toBeLessThan(timeline.indexOf('refund.pending'));
    const audit = await c.get<{ entries: { action: string; actor: string; target: string; ip: string }[] }>(
      '/dashboard/api/audit',
    );
    expect(audit.body.entries[0]).toMatchObject({ action: 'refund.create', actor: ownerEmail, target: payment });
    expect(audit.body.entries[0].ip).toMatch(/127\.0\.0\.1/);
  });

  it('rolls a key only in the mode the page showed, and never keeps its answer for a replay', async () => {
    const c = new DashboardClient(stack);
    await c.login(ownerEmail);
    const other = new DashboardClient(stack);
    other.cookie = c.cookie;
    other.csrf = c.csrf;
    // Another tab switched the session to live after this page was drawn in test mode.
    expect((await other.request('PUT', '/dashboard/api/session/mode', { body: { mode: 'live' } })).body.mode).toBe(
      'live',
    );
    const stale = await c.request('POST', '/dashboard/api/keys/roll', { body: { mode: 'test', type: 'public' } });
    expect(stale).toMatchObject({ status: 409, body: { code: 'mode_mismatch' } });
    const keyed = await c.request('POST', '/dashboard/api/keys/roll', {
      body: { mode: 'live', type: 'public' },
      headers: { 'idempotency-key': 'roll-1' },
    });
    expect(keyed).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'Idempotency-Key', message: 'is not accepted here' }] },
    });
    // Any change the app makes names the mode its page showed: a refund drawn in test mode is refused too.
    const staleRefund = await c.request('POST', `/dashboard/api/payments/${payment}/refunds`, {
      body: { amount: 100 },
      headers: { 'idempotency-key': 'stale-tab-1', 'x-dashboard-mode': 'test' },
    });
    expect(staleRefund).toMatchObject({ status: 409, body: { code: 'mode_mismatch' } });
    const rolled = await c.request<{ mode: string; api_key: string }>('POST', '/dashboard/api/keys/roll', {
      body: { mode: 'live', type: 'public' },
      headers: { 'x-dashboard-mode': 'live' },
    });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ mode: 'live', api_key: expect.stringMatching(/^pk_live_/) });
    // The mode switch itself is not about one mode's data: the old mode may be named.
    expect(
      (
        await c.request('PUT', '/dashboard/api/session/mode', {
          body: { mode: 'test' },
          headers: { 'x-dashboard-mode': 'live' },
        })
      ).status,
    ).toBe(200);
  });

  it('keeps the audit log newest first (by id, past ten entries too)', async () => {
    const c = new DashboardClient(stack);
    await c.login(ownerEmail);
    for (let i = 0; i < 12; i++)
      await c.request('PUT', '/dashboard/api/session/mode', { body: { mode: i % 2 === 0 ? 'live' : 'test' } });
    const audit = await c.get<{ entries: { id: string; action: string; details: { to?: string } }[] }>(
      '/dashboard/api/audit',
    );
    const ids = audit.body.entries.map((e) => Number(e.id));
    expect(ids.length).toBeGreaterThan(12);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(audit.body.entries[0]).toMatchObject({ action: 'mode.switch', details: { to: 'test' } });
  });

  it('charts a busy business from the ledger’s daily totals: 10 000 payments today, each counted once', async () => {
    const busy = await stack.createBusiness('Busy Shop');
    const c = new DashboardClient(stack);
    await c.login(await createDashboardUser(stack, busy.id, 'viewer'));
    // A pending and a success event for each of 10 000 payments of 10.00 USD, straight onto the topic.
    await produceHistory(stack, Topics.TransactionStatusChanged, 20_000, busy.id);
    const today = new Date().toISOString().slice(0, 10);
    type Overview = {
      days: { date: string; payments: number; succeeded: number; volume: Record<string, number> }[];
      recent: unknown[];
    };
    const overview = await waitFor(
      'the ledger to count every payment',
      async () => {
        const r = await c.get<Overview>('/dashboard/api/overview');
        const day = r.body.days.find((d) => d.date === today);
        return day && day.succeeded === 10_000 ? r.body : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(overview.days).toHaveLength(14);
    expect(overview.days.find((d) => d.date === today)).toEqual({
      date: today,
      payments: 10_000,
      succeeded: 10_000,
      volume: { USD: 10_000_000 },
    });
    expect(overview.days.filter((d) => d.date !== today).every((d) => d.payments === 0)).toBe(true);
    // The payments list is the transaction service's: these events never came from it.
    expect(overview.recent).toEqual([]);
  }, 120_000);

  it('exports the filtered payments as CSV', async () => {
    const c = new DashboardClient(stack);
    await c.login(ownerEmail);
    const csv = await c.get<string>('/dashboard/api/payments/export.csv?status=success');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'transaction_id,reference,status,amount,charges,total,' +
        'amount_refunded,currency,email,payment_method_code,date_created',
    );
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([payment]);
  });

  it('refuses a viewer’s refund (403 from the API, not only hidden) and a request without the CSRF token', async () => {
    const viewer = new DashboardClient(stack);
    await viewer.login(await createDashboardUser(stack, shop.id, 'viewer'));
    expect((await viewer.get(`/dashboard/api/payments/${payment}`)).status).toBe(200);
    expect(
      await viewer.request('POST', `/dashboard/api/payments/${payment}/refunds`, { body: { amount: 100 } }),
    ).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect((await viewer.get('/dashboard/api/audit')).status).toBe(403);
    const dev = new DashboardClient(stack);
    await dev.login(await createDashboardUser(stack, shop.id, 'developer'));
    const noToken = await dev.request('POST', `/dashboard/api/payments/${payment}/refunds`, {
      body: { amount: 100 },
      csrf: false,
    });
    expect(noToken).toMatchObject({ status: 403, body: { code: 'csrf_token_invalid' } });
    const api = await stack.api<{ refunds: unknown[] }>(
      'GET',
      '/v1/transactions/refunds?transaction_reference=dash-1',
      { key: shop.test.secret },
    );
    expect(api.body.refunds).toHaveLength(1);
  });

  it('refuses a sign-in another site could make a browser send (a form post, or a cross-site fetch)', async () => {
    const url = `${stack.gatewayUrl}/dashboard/api/login`;
    const form = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: ownerEmail, password: TEST_PASSWORD }).toString(),
    });
    expect([400, 415]).toContain(form.status);
    expect(form.headers.get('set-cookie')).toBeNull();
    const json = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ email: ownerEmail, password: TEST_PASSWORD }),
      });
    const refusedHeaders: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of refusedHeaders) {
      const r = await json(headers);
      expect({ headers, status: r.status, cookie: r.headers.get('set-cookie') }).toEqual({
        headers,
        status: 403,
        cookie: null,
      });
    }
    const host = new URL(stack.gatewayUrl).host;
    expect((await json({ 'sec-fetch-site': 'same-origin', origin: `http://${host}` })).status).toBe(200);
    expect((await json({ origin: `http://${host}` })).status).toBe(200);
  });

  it('logout ends the session on the server', async () => {
    const c = new DashboardClient(stack);
    await c.login(ownerEmail);
    const kept = c.cookie;
    expect((await c.request('POST', '/dashboard/api/logout')).status).toBe(200);
    c.cookie = kept;
    expect(await c.get('/dashboard/api/session')).toMatchObject({ status: 401, body: { code: 'not_signed_in' } });
  });

  it("limits sign-in: 10 failures per account → 429 even with the right password; successes don't count", async () => {
    const email = await createDashboardUser(stack, shop.id, 'viewer');
    const c = new DashboardClient(stack);
    for (let i = 0; i < 3; i++) expect((await c.login(email)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await c.login(email, 'wrong password!')).status).toBe(401);
    const locked = await c.login(email);
    expect(locked).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    // Unknown e-mails are limited alike (no telling accounts apart).
    for (let i = 0; i < 10; i++) expect((await c.login('ghost@example.com', 'x')).status).toBe(401);
    expect((await c.login('ghost@example.com', 'x')).status).toBe(429);
  }, 60_000);
});
