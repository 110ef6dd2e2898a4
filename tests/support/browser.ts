import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ROOT } from './infra';

/** Debian's Chromium, driven by playwright-core (no browser download). */
export const CHROMIUM = '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium); .ci/run does this`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Screenshots go under .local/screenshots (git-ignored), for people to look at after a run. */
export function screenshotPath(name: string): string {
  const dir = join(ROOT, '.local', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
