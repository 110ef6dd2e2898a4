import type { Browser } from 'playwright-core';
import { launchChromium, screenshotPath } from '../support/browser';
import { TEST_PASSWORD, createDashboardUser } from '../support/dashboard';
import { payAndSettle } from '../support/payments';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { expectAccessible, signedInPage } from '../support/dashboard-browser';

/**
 * The merchant dashboard in Debian's Chromium: sign in, find a payment made through the API,
 * refund part of it, the test/live switch, what a viewer may not do, CSRF, sign out; axe-core on
 * every page (no serious or critical violation) and no Content-Security-Policy violation.
 */
describe('merchant dashboard in Chromium', () => {
  jest.setTimeout(60_000);
  let stack: Stack;
  let browser: Browser;
  let shop: Awaited<ReturnType<Stack['createBusiness']>>;
  let owner: string;
  let viewer: string;
  let payment: string;
  const consoleErrors: string[] = [];
  const receiver = new WebhookReceiver(selfSignedCertificate());

  beforeAll(async () => {
    await receiver.start();
    // One retry a second after a failure: a delivery the receiver refuses twice is `failed` at once.
    stack = await Stack.start(undefined, { ...receiver.dispatcherEnv(), WEBHOOK_RETRY_SCHEDULE: '1' });
    shop = await stack.createBusiness('Mbare Market Goods');
    // The merchant's endpoint refuses the refund's webhook twice, then takes it.
    receiver.script('/hooks', [500, 500, 200]);
    const hook = await stack.api('POST', '/v1/callback', {
      key: shop.test.secret,
      body: { url: receiver.url('/hooks'), events: ['refund.pending'] },
    });
    expect(hook.status).toBe(200);
    owner = await createDashboardUser(stack, shop.id, 'owner');
    viewer = await createDashboardUser(stack, shop.id, 'viewer');
    payment = (await payAndSettle(stack, shop.test.secret, 'order-7781', { amount: 4500, email: 'tendai@example.com' }))
      .transaction_id as string;
    await payAndSettle(stack, shop.test.secret, 'order-7782', { amount: 1200, email: 'rudo@example.com' });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  /** A fresh browser profile, signed in as `email` on the overview page. */
  const signedIn = (email: string, viewport?: { width: number; height: number }) =>
    signedInPage(browser, stack.gatewayUrl, email, consoleErrors, viewport);

  it('serves the sign-in page with a strict CSP, no inline script, and deep links', async () => {
    const res = await fetch(`${stack.gatewayUrl}/dashboard/payments/${payment}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const html = await res.text();
    expect(html.match(/<script[^>]*>/g)).toEqual([
      expect.stringMatching(/src="\/dashboard\/assets\/index-[\w-]+\.js"/),
    ]);
    expect(html).not.toMatch(/<script[^>]*>[^<]+<\/script>/);
    expect((await fetch(`${stack.gatewayUrl}/dashboard/api/nothing-here`)).status).toBe(404);

    const page = await browser.newPage();
    await page.goto(`${stack.gatewayUrl}/dashboard`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expectAccessible(page, 'login');
    await page.getByLabel('Email', { exact: true }).fill(owner);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'wrong e-mail or password' }).waitFor();
    await page.close();
  });

  it('signs in to the overview: a chart by day and the payments made through the API', async () => {
    const { context, page } = await signedIn(owner);
    await page.locator('.recharts-surface').first().waitFor();
    await page.getByRole('link', { name: 'order-7781' }).waitFor();
    // 45.00 + 12.00 USD of successful volume over the last 14 days, once the ledger has counted them.
    await waitFor('the overview to count both successful payments', async () => {
      if ((await page.textContent('main'))?.includes('57.00 USD')) return true;
      await page.reload();
      await page.locator('.recharts-surface').first().waitFor();
      return undefined;
    });
    await expectAccessible(page, 'overview');
    await context.close();
  });

  it('finds a payment by reference and refunds part of it; the API lists the same refund', async () => {
    const { context, page } = await signedIn(owner);
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByRole('heading', { name: 'Payments' }).waitFor();
    await page.getByLabel('Reference or e-mail').fill('order-7781');
    await page.getByRole('button', { name: 'Search' }).click();
    await waitFor('the search to leave one payment', async () =>
      (await page.getByRole('link', { name: /^order-778/ }).count()) === 1 ? true : undefined,
    );
    await expectAccessible(page, 'payments');
    await page.getByRole('link', { name: 'order-7781' }).click();
    await page.getByRole('heading', { name: 'Payment order-7781' }).waitFor();
    expect(page.url()).toBe(`${stack.gatewayUrl}/dashboard/payments/${payment}`);
    await expectAccessible(page, 'payment');

    await page.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund this payment' });
    await dialog.getByLabel('Amount (USD)').fill('12.50');
    await dialog.getByLabel('Reason').fill('one jar arrived broken');
    await expectAccessible(page, 'refund-dialog');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('cell', { name: 'one jar arrived broken' }).waitFor();
    await page.getByRole('cell', { name: '12.50 USD' }).waitFor();
    await page.screenshot({ path: screenshotPath('dashboard-refunded.png'), fullPage: true });

    const api = await stack.api<{ refunds: { amount: number; reason: string }[] }>(
      'GET',
      '/v1/transactions/refunds?transaction_reference=order-7781',
      { key: shop.test.secret },
    );
    expect(api.body.refunds).toEqual([expect.objectContaining({ amount: 1250, reason: 'one jar arrived broken' })]);
    await context.close();
  });

  it('shows the refund’s failed webhook delivery, and resends it', async () => {
    const { context, page } = await signedIn(owner);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'refund.pending' });
    await waitFor(
      'the refund’s delivery to fail',
      async () => {
        await page.reload();
        await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
        return (await row.filter({ hasText: 'failed' }).count()) === 1 ? true : undefined;
      },
      { timeoutMs: 90_000 },
    );
    expect(await row.textContent()).toContain('HTTP 500');
    await expectAccessible(page, 'webhooks');
    await row.getByRole('button', { name: /^Resend refund.pending delivery/ }).click();
    await page.getByRole('status').filter({ hasText: 'Delivery queued again.' }).waitFor();
    await waitFor(
      'the resent delivery to succeed',
      async () => {
        await page.reload();
        await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
        return (await row.filter({ hasText: 'succeeded' }).count()) === 1 ? true : undefined;
      },
      { timeoutMs: 90_000 },
    );
    const hits = receiver.at('/hooks');
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
    expect(JSON.parse(hits[2].body)).toMatchObject({
      event: 'refund.pending',
      data: { transaction_id: payment, amount: 1250 },
    });
    // The delivery's details: the body every attempt sent, and each attempt's answer and duration.
    await row.getByRole('button', { name: /^Details of refund.pending delivery/ }).click();
    const details = page.getByRole('dialog', { name: 'Delivery of refund.pending' });
    const sent = details.getByLabel('Request body');
    await sent.waitFor();
    expect(JSON.parse((await sent.textContent()) ?? '')).toEqual(JSON.parse(hits[2].body));
    const attempts = details.getByRole('row').filter({ hasText: / ms$/ });
    expect(await attempts.count()).toBe(3);
    expect(await attempts.nth(0).textContent()).toContain('HTTP 500');
    expect(await attempts.nth(2).textContent()).toContain('HTTP 200');
    await expectAccessible(page, 'delivery-details');
    await details.getByRole('button', { name: 'Close' }).click();
    // No page or answer showed the endpoint's signing secret.
    expect(await page.content()).not.toContain('whsec_');
    // The payment's page shows the refund in its timeline, with the webhook it caused.
    await page.goto(`${stack.gatewayUrl}/dashboard/payments/${payment}`);
    const item = page.locator('.mantine-Timeline-item').filter({ hasText: 'refund.pending' });
    await item.getByText('succeeded').waitFor();
    expect(await item.textContent()).toContain('3 attempts');
    await expectAccessible(page, 'payment-timeline');
    await context.close();
  }, 240_000);

  it('the test/live switch changes what every page shows; a new session starts in test', async () => {
    const { context, page } = await signedIn(owner);
    await page.getByText('Live', { exact: true }).click();
    await page.getByText('No payments.').waitFor();
    expect(await page.getByRole('link', { name: 'order-7781' }).count()).toBe(0);
    await page.goto(`${stack.gatewayUrl}/dashboard/payments`);
    await page.getByText('No payments.').waitFor();
    await page.getByText('Test', { exact: true }).click();
    await page.getByRole('link', { name: 'order-7781' }).waitFor();
    await context.close();
  });

  it('a viewer sees no Refund button, and the API refuses the viewer’s refund (403)', async () => {
    const { context, page } = await signedIn(viewer);
    await page.goto(`${stack.gatewayUrl}/dashboard/payments/${payment}`);
    await page.getByRole('heading', { name: 'Payment order-7781' }).waitFor();
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    // The page's own session and CSRF token, asking anyway.
    const answer = await page.evaluate(async (id) => {
      const s = (await (await fetch('/dashboard/api/session')).json()) as { csrf_token: string };
      const r = await fetch(`/dashboard/api/payments/${id}/refunds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrf_token },
        body: JSON.stringify({ amount: 100 }),
      });
      return { status: r.status, body: await r.json() };
    }, payment);
    expect(answer).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    const roll = await page.evaluate(async () => {
      const s = (await (await fetch('/dashboard/api/session')).json()) as { csrf_token: string };
      const r = await fetch('/dashboard/api/keys/roll', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrf_token },
        body: JSON.stringify({ mode: 'test', type: 'secret' }),
      });
      return r.status;
    });
    expect(roll).toBe(403);
    await context.close();
  });

  it('refuses a state-changing request without the CSRF token', async () => {
    const { context, page } = await signedIn(owner);
    const answer = await page.evaluate(async (id) => {
      const r = await fetch(`/dashboard/api/payments/${id}/refunds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 100 }),
      });
      return { status: r.status, body: await r.json() };
    }, payment);
    expect(answer).toMatchObject({ status: 403, body: { code: 'csrf_token_invalid' } });
    await context.close();
  });

  it('rolls the secret key: the new key is shown once, the old stops working, the page keeps them masked', async () => {
    const { context, page } = await signedIn(owner);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('cell', { name: `${shop.test.secret.slice(0, 12)}…` }).waitFor();
    expect(await page.content()).not.toContain(shop.test.secret);
    await expectAccessible(page, 'keys');
    await page.getByRole('button', { name: 'Roll secret key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll the test secret key' });
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    const fresh = (await dialog.getByTestId('new-key').textContent())!.trim();
    expect(fresh).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    await expectAccessible(page, 'key-rolled');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: `${fresh.slice(0, 12)}…` }).waitFor();
    expect(await page.content()).not.toContain(fresh);
    expect(
      (await stack.api('GET', '/v1/transactions/verify?reference=order-7781', { key: shop.test.secret })).status,
    ).toBe(401);
    expect((await stack.api('GET', '/v1/transactions/verify?reference=order-7781', { key: fresh })).status).toBe(200);
    shop.test.secret = fresh;
    await context.close();
  });

  it('an owner invites a developer, who may refund but not manage users', async () => {
    const { context, page } = await signedIn(owner);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('E-mail address').fill('dev@mbare.example');
    await page.getByLabel('First password (12 or more characters)', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: /^Developer/ }).click();
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('cell', { name: 'dev@mbare.example' }).waitFor();
    await expectAccessible(page, 'users');
    await context.close();
    const dev = await signedIn('dev@mbare.example');
    await dev.page.goto(`${stack.gatewayUrl}/dashboard/payments/${payment}`);
    await dev.page.getByRole('button', { name: 'Refund' }).waitFor();
    expect(await dev.page.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await dev.context.close();
  });

  it('works on a phone-sized screen; the audit log shows what was done; sign out ends the session', async () => {
    const { context, page } = await signedIn(owner, { width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'refund.create' }).first().waitFor();
    await page.getByRole('cell', { name: 'webhook.resend' }).first().waitFor();
    await page.getByRole('cell', { name: 'key.roll' }).first().waitFor();
    await page.getByRole('cell', { name: 'user.invite' }).first().waitFor();
    await expectAccessible(page, 'audit-phone');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'dashboard_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/dashboard',
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The old cookie no longer opens anything: the session was ended on the server.
    const old = cookies.find((c) => c.name === 'dashboard_session')!;
    const again = await fetch(`${stack.gatewayUrl}/dashboard/api/session`, {
      headers: { cookie: `dashboard_session=${old.value}` },
    });
    expect(again.status).toBe(401);
    await context.close();
  });

  it('no page broke its Content-Security-Policy or logged an error', () => {
    // Failed sign-ins and refused requests log their HTTP status; anything else is a problem.
    expect(consoleErrors).toEqual([]);
  });
});
