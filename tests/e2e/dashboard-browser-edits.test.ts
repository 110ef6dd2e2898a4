import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { createDashboardUser } from '../support/dashboard';
import { Stack } from '../support/stack';
import { expectAccessible, signedInPage } from '../support/dashboard-browser';

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

/**
 * Editing in the merchant dashboard, in Debian's Chromium: a payment link's description and
 * metadata; creating, editing and deactivating a split config, its partner shown by name; what a
 * developer and a viewer see (and the API refusing them); a phone-sized screen; axe-core on every
 * new dialog (no serious or critical violation).
 */
describe('dashboard edits of links and split configs in Chromium', () => {
  jest.setTimeout(90_000);
  let stack: Stack;
  let browser: Browser;
  let shop: Awaited<ReturnType<Stack['createBusiness']>>;
  let partner: Awaited<ReturnType<Stack['createBusiness']>>;
  let owner: string;
  let developer: string;
  let viewer: string;
  let linkId: string;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    stack = await Stack.start();
    shop = await stack.createBusiness('Mbare Crafts');
    partner = await stack.createBusiness('Gallery Partner');
    owner = await createDashboardUser(stack, shop.id, 'owner');
    developer = await createDashboardUser(stack, shop.id, 'developer');
    viewer = await createDashboardUser(stack, shop.id, 'viewer');
    const link = await stack.api<{ payment_link_id: string }>('POST', '/v1/links', {
      key: shop.test.secret,
      body: { amount: 4000, currency: 'USD', description: 'Soapstone bowl', metadata: { sku: 'B-1', batch: '7' } },
    });
    linkId = link.body.payment_link_id;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 120_000);

  const signedIn = (email: string, viewport?: { width: number; height: number }) =>
    signedInPage(browser, stack.gatewayUrl, email, consoleErrors, viewport);
  const apiLink = async () =>
    (
      await stack.api<{ description: string; metadata: Record<string, string> }>('GET', `/v1/links/${linkId}`, {
        key: shop.test.secret,
      })
    ).body;
  const apiConfigs = async () =>
    (await stack.api<{ split_configs: Config[] }>('GET', '/v1/splits/config', { key: shop.test.secret })).body
      .split_configs;
  // The owner typed this partner's id: it is shown as the id (names are shown only to the businesses one pays).
  const partnerName = () => `Business ${partner.id}`;

  /** Elements wider than the screen outside a scrolling region (wide tables scroll inside theirs). */
  const overflowing = (page: Page) =>
    page.evaluate(() => {
      type El = {
        tagName: string;
        className: string;
        textContent: string | null;
        getBoundingClientRect(): { right: number };
        closest(s: string): unknown;
      };
      const g = globalThis as unknown as {
        document: { querySelectorAll(s: string): Iterable<El> };
        innerWidth: number;
      };
      return [...g.document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > g.innerWidth + 1 && !e.closest('[role="region"]'))
        .map((e) => `${e.tagName}.${String(e.className).slice(0, 60)}: ${(e.textContent ?? '').slice(0, 40)}`);
    });

  it('edits a link’s description and metadata', async () => {
    const { context, page } = await signedIn(owner);
    await page.getByRole('link', { name: 'Payment links' }).click();
    await page.getByRole('button', { name: 'Edit Soapstone bowl' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit payment link' });
    expect(await dialog.getByLabel('Metadata 1 key').inputValue()).toBe('sku');
    await expectAccessible(page, 'link-edit-dialog');
    // The form's own check, before any request.
    await dialog.getByLabel('Description').fill(' ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Enter a description' }).waitFor();
    await dialog.getByLabel('Description').fill('Soapstone bowl, large');
    await dialog.getByLabel('Metadata 1 value').fill('B-2');
    await dialog.getByRole('button', { name: 'Remove metadata 2' }).click();
    await dialog.getByRole('button', { name: 'Add metadata' }).click();
    await dialog.getByLabel('Metadata 2 key').fill('colour');
    await dialog.getByLabel('Metadata 2 value').fill('grey');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Link “Soapstone bowl, large” saved.' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Soapstone bowl, large' }).waitFor();
    expect(await apiLink()).toMatchObject({
      description: 'Soapstone bowl, large',
      metadata: { sku: 'B-2', colour: 'grey' },
    });
    expect(Object.keys((await apiLink()).metadata).sort()).toEqual(['colour', 'sku']);
    await context.close();
  });

  it('creates, edits and deactivates a split config', async () => {
    const { context, page } = await signedIn(owner);
    await page.getByRole('link', { name: 'Splits', exact: true }).click();
    await page.getByText('No split configs in this mode.').waitFor();
    await page.getByRole('button', { name: 'New split config' }).click();
    const dialog = page.getByRole('dialog', { name: 'New split config' });
    await dialog.getByLabel('Partner business id').fill(String(partner.id));
    await dialog.getByLabel('Share (%)').fill('0');
    await dialog.getByRole('button', { name: 'Create split config' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Enter a percentage above 0' }).waitFor();
    await dialog.getByLabel('Share (%)').fill('2.5');
    await dialog.getByLabel('Description').fill('Gallery commission');
    await expectAccessible(page, 'split-config-dialog');
    await dialog.getByRole('button', { name: 'Create split config' }).click();
    await page.getByRole('status').filter({ hasText: 'created' }).waitFor();
    const configs = page.getByRole('region', { name: 'Split configs' });
    const row = configs.getByRole('row').filter({ hasText: 'Gallery commission' });
    await row.getByText(partnerName()).waitFor();
    expect(await row.textContent()).toContain('2.5 % of USD payments');
    expect(await apiConfigs()).toEqual([
      expect.objectContaining({
        partner_business_id: partner.id,
        split_type: 'percentage',
        split_value: 250,
        split_role: 'fee',
        description: 'Gallery commission',
      }),
    ]);
    await expectAccessible(page, 'splits-configs');

    await row.getByRole('button', { name: `Edit split config 2.5 % to ${partnerName()}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit split config' });
    expect(await edit.getByLabel('Share (%)').inputValue()).toBe('2.5');
    await edit.getByLabel('Share (%)').fill('3');
    await edit.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: /^Principal/ }).click();
    await expectAccessible(page, 'split-config-edit-dialog');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'saved' }).waitFor();
    await row.getByText('3 % of USD payments').waitFor();
    expect(await row.textContent()).toContain('principal');
    expect((await apiConfigs())[0]).toMatchObject({ split_value: 300, split_role: 'principal' });

    await row.getByRole('button', { name: /^Deactivate split config/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate this split config?' });
    expect(await confirm.textContent()).toContain(partnerName());
    await expectAccessible(page, 'split-config-deactivate');
    await confirm.getByRole('button', { name: 'Deactivate split config' }).click();
    await page.getByRole('status').filter({ hasText: 'deactivated' }).waitFor();
    await row.getByText('inactive').waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    expect((await apiConfigs())[0]).toMatchObject({ is_active: false });
    await context.close();
  });

  it('a developer edits links but not split configs; a viewer edits neither; the API refuses them (403)', async () => {
    const dev = await signedIn(developer);
    await dev.page.getByRole('link', { name: 'Payment links' }).click();
    await dev.page.getByRole('button', { name: /^Edit Soapstone bowl/ }).waitFor();
    await dev.page.getByRole('link', { name: 'Splits', exact: true }).click();
    await dev.page.getByRole('region', { name: 'Split configs' }).waitFor();
    expect(await dev.page.getByRole('button', { name: 'New split config' }).count()).toBe(0);
    expect(await dev.page.getByRole('button', { name: /split config/ }).count()).toBe(0);
    const devAnswer = await dev.page.evaluate(async (partnerId) => {
      const s = (await (await fetch('/dashboard/api/session')).json()) as { csrf_token: string };
      const headers = {
        'content-type': 'application/json',
        'x-csrf-token': s.csrf_token,
        'idempotency-key': 'dev-config-1',
      };
      const body = JSON.stringify({
        partner_business_id: partnerId,
        split_type: 'fixed',
        split_value: 5,
        split_role: 'fee',
        currency: 'USD',
      });
      const r = await fetch('/dashboard/api/splits/configs', { method: 'POST', headers, body });
      return [r.status, ((await r.json()) as { code: string }).code];
    }, partner.id);
    expect(devAnswer).toEqual([403, 'forbidden']);
    await dev.context.close();

    const view = await signedIn(viewer);
    await view.page.getByRole('link', { name: 'Payment links' }).click();
    await view.page.getByRole('row').filter({ hasText: 'Soapstone bowl' }).waitFor();
    expect(await view.page.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    const viewAnswer = await view.page.evaluate(async (id) => {
      const s = (await (await fetch('/dashboard/api/session')).json()) as { csrf_token: string };
      const headers = { 'content-type': 'application/json', 'x-csrf-token': s.csrf_token };
      const r = await fetch(`/dashboard/api/links/${id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ description: 'By a viewer' }),
      });
      return [r.status, ((await r.json()) as { code: string }).code];
    }, linkId);
    expect(viewAnswer).toEqual([403, 'forbidden']);
    expect((await apiLink()).description).toBe('Soapstone bowl, large');
    expect(await apiConfigs()).toHaveLength(1);
    await view.context.close();
  });

  it('on a phone-sized screen: editing a link and adding a split config', async () => {
    const { context, page } = await signedIn(owner, { width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Payment links' }).click();
    await page.getByRole('button', { name: 'Edit Soapstone bowl, large' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit payment link' });
    await dialog.getByLabel('Description').fill('Soapstone bowl, small');
    expect(await overflowing(page)).toEqual([]);
    await expectAccessible(page, 'link-edit-phone');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Link “Soapstone bowl, small” saved.' }).waitFor();

    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Splits', exact: true }).click();
    await page.getByRole('button', { name: 'New split config' }).click();
    const create = page.getByRole('dialog', { name: 'New split config' });
    await create.getByLabel('Partner business id').fill(String(partner.id));
    await create.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: /^Fixed amount/ }).click();
    await create.getByLabel('Amount (USD)').fill('1.50');
    expect(await overflowing(page)).toEqual([]);
    await expectAccessible(page, 'split-config-phone');
    await create.getByRole('button', { name: 'Create split config' }).click();
    await page.getByRole('status').filter({ hasText: 'created' }).waitFor();
    await page.getByRole('region', { name: 'Split configs' }).getByText('1.50 USD per payment').waitFor();
    expect(await overflowing(page)).toEqual([]);
    expect((await apiConfigs())[0]).toMatchObject({ split_type: 'fixed', split_value: 150, is_active: true });
    await context.close();
  });

  it('no page broke its Content-Security-Policy or logged an error', () => {
    expect(consoleErrors).toEqual([]);
  });
});
