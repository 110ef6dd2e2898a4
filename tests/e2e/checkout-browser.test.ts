import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshotPath } from '../support/browser';
import { freePort } from '../support/processes';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';

/**
 * A customer pays in a real browser (Debian Chromium) on the hosted checkout page, through a
 * payment link and through a transaction's checkout_url; the merchant then verifies the payment.
 */
describe('hosted checkout in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let shop: Server;
  let shopUrl: string;
  let keys: Awaited<ReturnType<Stack['createBusiness']>>;
  let partner: Awaited<ReturnType<Stack['createBusiness']>>;

  beforeAll(async () => {
    stack = await Stack.start();
    keys = await stack.createBusiness('Harare Books');
    partner = await stack.createBusiness('Courier Co');
    // The merchant's own site, where the customer lands after paying.
    const port = await freePort();
    shop = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Shop</title><h1>Thank you</h1><p id="where">${req.url}</p>`);
    });
    await new Promise<void>((r) => shop.listen(port, '127.0.0.1', r));
    shopUrl = `http://127.0.0.1:${port}`;
    browser = await launchChromium();
  }, 120_000);

  beforeEach(async () => {
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page?.close();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => shop?.close(r));
    await stack?.stop();
  }, 120_000);

  it('pays a payment link with EcoCash and lands on the merchant success URL; the merchant verifies it', async () => {
    const link = await stack.api('POST', '/v1/links', {
      key: keys.test.secret,
      body: {
        amount: 2500,
        currency: 'USD',
        description: 'The Complete Works of Dambudzo Marechera',
        splits: [{ business_id: partner.id, type: 'fixed', value: 300, description: 'delivery' }],
        success_url: `${shopUrl}/thanks`,
        failure_url: `${shopUrl}/sorry`,
      },
    });
    expect(link.status).toBe(200);

    await page.goto(link.body.hosted_payment_link as string);
    await expect(page.title()).resolves.toBe('Pay Harare Books');
    const text = await page.textContent('main');
    expect(text).toContain('Harare Books');
    expect(text).toContain('The Complete Works of Dambudzo Marechera');
    expect(text).toContain('25.00 USD'); // amount
    expect(text).toContain('0.63 USD'); // charges: ceil(2500 × 2.5 %) = 63
    expect(await page.textContent('[data-testid=total]')).toBe('25.63 USD');
    expect(text).toContain('Test mode');
    await page.screenshot({ path: screenshotPath('checkout-link.png'), fullPage: true });

    await page.getByLabel('Email address').fill('reader@example.com');
    await page.getByLabel('EcoCash', { exact: true }).check();
    await page.getByLabel(/Mobile money number/).fill('0771234567');
    await page.getByRole('button', { name: /^Pay / }).click();

    // Processing: the page refreshes itself until the sandbox settles, then goes to the shop.
    await page.waitForURL((url) => url.href.startsWith(`${shopUrl}/thanks`), { timeout: 30_000 });
    const landed = new URL(page.url());
    expect(landed.searchParams.get('status')).toBe('success');
    const reference = landed.searchParams.get('reference')!;
    await page.screenshot({ path: screenshotPath('checkout-link-done.png') });

    const verified = await stack.api('GET', `/v1/transactions/verify?reference=${reference}`, {
      key: keys.test.secret,
    });
    expect(verified.body).toMatchObject({
      result: 'success',
      status: 'success',
      amount: 2500,
      charges: 63,
      total: 2563,
      emailAddress: 'reader@example.com',
    });

    // The link's splits travel with the transaction's events to the ledger.
    const splits = await waitFor('the ledger to receive the link splits', async () => {
      const { rows } = await stack
        .db('split-ledger-service')
        .query("SELECT link_splits, status FROM ledger_transactions WHERE public_id = $1 AND status = 'success'", [
          verified.body.transaction_id,
        ]);
      return rows[0]?.link_splits;
    });
    expect(splits).toEqual([{ business_id: partner.id, type: 'fixed', value: 300, description: 'delivery' }]);

    // Each payment through a link is a new transaction.
    await page.goto(link.body.hosted_payment_link as string);
    expect(await page.getByLabel('Email address').inputValue()).toBe('');
  }, 60_000);

  it('completes a card payment from a transaction checkout_url', async () => {
    const init = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: {
        amount: 1000,
        email: 'card@example.com',
        currency: 'USD',
        transaction_reference: 'browser-card',
        success_url: `${shopUrl}/thanks`,
        failure_url: `${shopUrl}/sorry`,
      },
    });
    await page.goto(init.body.checkout_url as string);
    await page.getByLabel('ZimSwitch card').check();
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((url) => url.href.startsWith(`${shopUrl}/thanks`), { timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('reference')).toBe('browser-card');
    const verified = await stack.api('GET', '/v1/transactions/verify?reference=browser-card', {
      key: keys.test.secret,
    });
    expect(verified.body.status).toBe('success');
  }, 60_000);

  it('declines, redirecting to the failure URL, and the transaction is failed', async () => {
    const init = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: {
        amount: 1000,
        email: 'decline@example.com',
        currency: 'USD',
        transaction_reference: 'browser-decline',
        failure_url: `${shopUrl}/sorry`,
      },
    });
    await page.goto(init.body.checkout_url as string);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${shopUrl}/sorry`), { timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('status')).toBe('failed');
    const verified = await stack.api('GET', '/v1/transactions/verify?reference=browser-decline', {
      key: keys.test.secret,
    });
    expect(verified.body.status).toBe('failed');
  }, 60_000);

  it('shows a clear error and keeps the form when the mobile number is wrong', async () => {
    const init = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: { amount: 1000, email: 'oops@example.com', currency: 'USD', transaction_reference: 'browser-oops' },
    });
    await page.goto(init.body.checkout_url as string);
    await page.getByLabel('EcoCash', { exact: true }).check();
    await page.getByLabel(/Mobile money number/).fill('12345');
    // The browser's own pattern check would stop a real customer first; submit past it to see the server's answer.
    await page.$eval('form', (f) => f.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: /^Pay / }).click();
    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toContain('mobile money number must start with 0');
    expect(await page.getByLabel(/Mobile money number/).inputValue()).toBe('12345');
    const verified = await stack.api('GET', '/v1/transactions/verify?reference=browser-oops', {
      key: keys.test.secret,
    });
    expect(verified.body.status).toBe('pending');
  }, 60_000);

  it('pays a link once when the same page is submitted twice (double click, resubmit)', async () => {
    const link = await stack.api('POST', '/v1/links', {
      key: keys.test.secret,
      body: { amount: 900, currency: 'USD', description: 'Once only' },
    });
    const page = await (await fetch(link.body.hosted_payment_link as string)).text();
    const token = /name="attempt_token" value="([^"]+)"/.exec(page)?.[1];
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    const form = new URLSearchParams({
      checkout_id: link.body.payment_link_id as string,
      attempt_token: token!,
      email: 'twice@example.com',
      payment_method_code: 'zimswitch',
      action: 'pay',
    });
    const submit = () => fetch(`${stack.gatewayUrl}/checkout/pay`, { method: 'POST', body: form, redirect: 'manual' });
    const [first, second] = await Promise.all([submit(), submit()]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    const { rows } = await stack
      .db('transaction-service')
      .query('SELECT status FROM transactions WHERE payment_link_id = $1', [link.body.payment_link_id]);
    expect(rows).toEqual([{ status: 'success' }]);
  });

  it('answers an unknown checkout with a 404 page', async () => {
    const res = await page.goto(`${stack.gatewayUrl}/checkout?checkout_id=chk_doesnotexist0000`);
    expect(res?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('This checkout does not exist');
  });
});
