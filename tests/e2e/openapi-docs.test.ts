import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshotPath } from '../support/browser';
import { ROOT } from '../support/infra';
import { Stack } from '../support/stack';

/**
 * The running gateway serves the committed OpenAPI 3.1 document (webhooks included), and Swagger
 * UI renders it in a real browser: its operations and the webhook event types, without errors.
 */
describe('OpenAPI document and /docs', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await Stack.start(['gateway']);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 60_000);

  it('serves exactly the committed docs/openapi.json, as JSON and YAML', async () => {
    const res = await fetch(`${stack.gatewayUrl}/docs/openapi.json`);
    expect(res.status).toBe(200);
    const served = (await res.json()) as { openapi: string; webhooks: Record<string, unknown> };
    expect(served).toEqual(JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8')));
    expect(served.openapi).toBe('3.1.0');
    const yaml = await fetch(`${stack.gatewayUrl}/docs/openapi.yaml`);
    expect(yaml.status).toBe(200);
    expect(await yaml.text()).toContain('payment.completed');
  });

  it('renders in Swagger UI with the operations and the webhooks', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${stack.gatewayUrl}/docs`);
      await page
        .locator('.opblock-summary-path', { hasText: '/v1/transactions/verify' })
        .first()
        .waitFor({ timeout: 30_000 });
      await page.getByText('Webhooks', { exact: true }).first().waitFor({ timeout: 30_000 });
      await page.locator('.opblock', { hasText: 'refund.success' }).first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: screenshotPath('openapi-docs.png'), fullPage: false });
      expect(await page.locator('.errors-wrapper').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);
});
