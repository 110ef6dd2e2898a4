import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousA11yProblems } from './axe';
import { screenshotPath } from './browser';
import { TEST_PASSWORD } from './dashboard';

/**
 * A browser context signed in to the dashboard as `email`, on the Overview page. Console errors
 * and failed responses (other than the 401/403 a journey provokes on purpose) are collected into
 * `errors`, each with the address it concerns, for the journey's last check.
 */
export async function signedInPage(
  browser: Browser,
  gatewayUrl: string,
  email: string,
  errors: string[],
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of (401|403)\b/.test(m.text()))
      errors.push(`${m.text()} (${m.location().url} on ${page.url()})`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && r.status() !== 401 && r.status() !== 403)
      errors.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  await page.goto(`${gatewayUrl}/dashboard`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return { context, page };
}

/**
 * A full-page screenshot kept as a CI artifact, and no serious or critical axe-core violation. It waits for the page's
 * transitions to end first: axe reads a dialog still fading in or out at its partial opacity, as low contrast.
 * Animations that repeat for ever (a loader) are not waited for. Mantine starts a transition a frame after it mounts
 * what it shows, so two frames pass first.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as unknown as { requestAnimationFrame(f: () => void): void };
    return new Promise<void>((resolve) => g.requestAnimationFrame(() => g.requestAnimationFrame(resolve)));
  });
  await page.waitForFunction(() => {
    type Animation = { playState: string; effect: { getTiming(): { iterations?: number } } | null };
    const doc = (globalThis as unknown as { document: { getAnimations(): Animation[] } }).document;
    return doc.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity);
  });
  await page.screenshot({ path: screenshotPath(`dashboard-${name}.png`), fullPage: true });
  expect({ page: name, problems: await seriousA11yProblems(page) }).toEqual({ page: name, problems: [] });
}
