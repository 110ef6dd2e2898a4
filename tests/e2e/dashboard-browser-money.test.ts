import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { DashboardClient, createDashboardUser } from '../support/dashboard';
import { linkPaymentWithEntries, payThroughLink } from '../support/dashboard-money';
import { Stack } from '../support/stack';
import { expectAccessible, signedInPage } from '../support/dashboard-browser';

/**
 * Payment links and splits in the merchant dashboard, in Debian's Chromium: create a link with a
 * split, a customer pays through it, the split's ledger entry on the payment page and in the
 * splits summary, deactivate the link; a viewer sees but cannot act (the API refuses it too);
 * a phone-sized screen; axe-core on every page (no serious or critical violation).
 */
describe('dashboard payment links and splits in Chromium', () => {
  jest.setTimeout(90_000);
  let stack: Stack;
  let browser: Browser;
  let shop: Awaited<ReturnType<Stack['createBusiness']>>;
  let partner: Awaited<ReturnType<Stack['createBusiness']>>;
  let owner: string;
  let viewer: string;
  let linkId: string;
  let transactionId: string;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    stack = await Stack.start();
    shop = await stack.createBusiness('Harare Tickets');
    partner = await stack.createBusiness('Venue Partner');
    owner = await createDashboardUser(stack, shop.id, 'owner');
    viewer = await createDashboardUser(stack, shop.id, 'viewer');
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 120_000);

  const signedIn = (email: string, viewport?: { width: number; height: number }) =>
    signedInPage(browser, stack.gatewayUrl, email, consoleErrors, viewport);

  it('creates a link with a split; a customer pays it; the payment and splits pages show the split', async () => {
    const { context, page } = await signedIn(owner);
    await page.getByRole('link', { name: 'Payment links' }).click();
    await page.getByRole('heading', { name: 'Payment links' }).waitFor();
    await page.getByText('No payment links in this mode.').waitFor();
    await expectAccessible(page, 'links-empty');
    await page.getByRole('button', { name: 'New link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New payment link' });
    await dialog.getByLabel('Description').fill('Jazz night ticket');
    await dialog.getByLabel('Amount (USD)').fill('50');
    await dialog.getByRole('button', { name: 'Add split' }).click();
    await dialog.getByLabel('Split 1 partner business id').fill(String(partner.id));
    await dialog.getByLabel('Split 1 share (%)').fill('150');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    // The form's own check, before any request.
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'Split 1: enter a percentage above 0 and at most 100' })
      .waitFor();
    await dialog.getByLabel('Split 1 share (%)').fill('12.5');
    await expectAccessible(page, 'link-dialog');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('status').filter({ hasText: 'Link “Jazz night ticket” created' }).waitFor();
    // The page is checked once the dialog has gone: mid-way through its closing fade its button reads as low contrast.
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: 'Jazz night ticket' });
    expect(await row.textContent()).toContain(`12.5 % to Business ${partner.id}`);
    expect(await row.textContent()).toContain('50.00 USD');
    await expectAccessible(page, 'links');

    const api = await stack.api<{ links: { payment_link_id: string; amount: number; splits: unknown[] }[] }>(
      'GET',
      '/v1/links',
      { key: shop.test.secret },
    );
    expect(api.body.links).toEqual([
      expect.objectContaining({
        amount: 5000,
        splits: [{ business_id: partner.id, type: 'percentage', value: 1250, description: null }],
      }),
    ]);
    linkId = api.body.links[0].payment_link_id;

    await payThroughLink(stack, linkId);
    const c = new DashboardClient(stack);
    await c.login(owner);
    transactionId = (await linkPaymentWithEntries(c, linkId, 1)).transactionId;

    // 12.5 % of 50.00 USD is owed to the partner: on the payment's page…
    await page.goto(`${stack.gatewayUrl}/dashboard/payments/${transactionId}`);
    await page.getByRole('heading', { name: 'Split ledger entries' }).waitFor();
    const entries = page.getByRole('region', { name: /^What this payment owes partners/ });
    const entry = entries.getByRole('row').filter({ hasText: '6.25 USD' });
    expect(await entry.textContent()).toMatch(
      new RegExp(`Split.*Business ${partner.id}.*You owe.*6\\.25 USD.*pending`),
    );
    await expectAccessible(page, 'payment-splits');

    // …and in the splits page's summary and ledger, by id: the shop typed the name, and names are
    // shown only to those a business pays.
    await page.getByRole('link', { name: 'Splits', exact: true }).click();
    await page.getByRole('heading', { name: 'Splits', exact: true }).waitFor();
    const perPartner = page
      .getByRole('region', { name: 'Owed per partner' })
      .getByRole('row')
      .filter({ hasText: `Business ${partner.id}` });
    await perPartner.waitFor();
    expect(await perPartner.textContent()).toBe(`Business ${partner.id}0.00 USD6.25 USD`);
    const ledgerRow = page
      .getByRole('region', { name: /^Ledger entries/ })
      .getByRole('row')
      .filter({ hasText: transactionId });
    expect(await ledgerRow.textContent()).toContain('6.25 USD');
    await expectAccessible(page, 'splits');
    await ledgerRow.getByRole('link', { name: transactionId }).click();
    await page.getByRole('heading', { name: /^Payment / }).waitFor();
    expect(page.url()).toBe(`${stack.gatewayUrl}/dashboard/payments/${transactionId}`);

    // The settlement nets the entry into an invoice; the invoice's page lists what it nets.
    expect(
      (
        await stack.api('POST', '/admin/v1/settlements/run', {
          headers: { authorization: `Bearer ${stack.adminToken}` },
        })
      ).status,
    ).toBe(200);
    await page.getByRole('link', { name: 'Splits', exact: true }).click();
    const invoice = page.getByRole('region', { name: 'Settlement invoices' }).getByRole('link').first();
    await invoice.waitFor();
    const reference = (await invoice.textContent())?.trim() ?? '';
    await invoice.click();
    await page.getByRole('heading', { name: `Invoice ${reference}` }).waitFor();
    expect(page.url()).toBe(`${stack.gatewayUrl}/dashboard/splits/invoices/${reference}`);
    expect(await page.textContent('main')).toContain('6.25 USD');
    await expectAccessible(page, 'invoice');
    await context.close();
  });

  it('a viewer sees links and splits but no New link or Deactivate, and the API refuses both (403)', async () => {
    const { context, page } = await signedIn(viewer);
    await page.getByRole('link', { name: 'Payment links' }).click();
    await page.getByRole('row').filter({ hasText: 'Jazz night ticket' }).waitFor();
    expect(await page.getByRole('button', { name: 'New link' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Deactivate/ }).count()).toBe(0);
    const answers = await page.evaluate(async (id) => {
      const s = (await (await fetch('/dashboard/api/session')).json()) as { csrf_token: string };
      const headers = {
        'content-type': 'application/json',
        'x-csrf-token': s.csrf_token,
        'idempotency-key': 'viewer-link-1',
      };
      const made = await fetch('/dashboard/api/links', {
        method: 'POST',
        headers,
        body: JSON.stringify({ amount: 100, currency: 'USD', description: 'Not allowed' }),
      });
      const off = await fetch(`/dashboard/api/links/${id}/deactivate`, {
        method: 'POST',
        headers: { 'x-csrf-token': s.csrf_token },
      });
      return [
        made.status,
        ((await made.json()) as { code: string }).code,
        off.status,
        ((await off.json()) as { code: string }).code,
      ];
    }, linkId);
    expect(answers).toEqual([403, 'forbidden', 403, 'forbidden']);
    await page.getByRole('link', { name: 'Splits', exact: true }).click();
    await page.getByRole('region', { name: 'Owed per partner' }).waitFor();
    expect(
      (await stack.api<{ active: boolean }>('GET', `/v1/links/${linkId}`, { key: shop.test.secret })).body.active,
    ).toBe(true);
    await context.close();
  });

  it('on a phone-sized screen: the links and splits pages, then deactivating the link', async () => {
    const { context, page } = await signedIn(owner, { width: 390, height: 844 });
    // Nothing wider than the screen (wide tables scroll inside their own region): answers what sticks out.
    type El = {
      tagName: string;
      className: string;
      textContent: string | null;
      getBoundingClientRect(): { right: number };
      closest(s: string): unknown;
    };
    const overflowing = () =>
      page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { querySelectorAll(s: string): Iterable<El> };
          innerWidth: number;
        };
        return [...g.document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > g.innerWidth + 1 && !e.closest('[role="region"]'))
          .map((e) => `${e.tagName}.${String(e.className).slice(0, 60)}: ${(e.textContent ?? '').slice(0, 40)}`);
      });
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Splits', exact: true }).click();
    await page.getByRole('region', { name: 'Owed per partner' }).waitFor();
    expect(await overflowing()).toEqual([]);
    await expectAccessible(page, 'splits-phone');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Payment links' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Jazz night ticket' });
    await row.waitFor();
    expect(await overflowing()).toEqual([]);
    await expectAccessible(page, 'links-phone');
    await row.getByRole('button', { name: 'Deactivate Jazz night ticket' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate this link?' });
    await confirm.waitFor();
    await expectAccessible(page, 'link-deactivate-phone');
    await confirm.getByRole('button', { name: 'Deactivate link' }).click();
    await page.getByRole('status').filter({ hasText: 'Link “Jazz night ticket” deactivated' }).waitFor();
    await row.getByText('inactive').waitFor();
    expect(await row.getByRole('button', { name: /^Deactivate/ }).count()).toBe(0);
    expect(
      (await stack.api<{ active: boolean }>('GET', `/v1/links/${linkId}`, { key: shop.test.secret })).body.active,
    ).toBe(false);
    await context.close();
  });

  it('no page broke its Content-Security-Policy or logged an error', () => {
    // Refused requests log their HTTP status; anything else is a problem. The dashboard has no
    // icon, so Chromium's own request for /favicon.ico (not the app's) may answer 404.
    expect(consoleErrors).toEqual([]);
  });
});
