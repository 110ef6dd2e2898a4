/**
 * The environment variables the code reads: every name declared in a config source file under
 * apps/<app>/src or libs/<lib>/src (the config classes). A manifest that sets any other name
 * sets nothing (a typo, or a setting that was removed).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './render';

/**
 * Settings announced by work on other branches (Kafka authentication and topic creation,
 * internal RPC authentication, HTTP bind address, gateway metrics port) that the manifests
 * already set, before their config classes are merged. Remove a name once its config class
 * declares it.
 */
export const ANNOUNCED: string[] = [];

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? (e.name === 'node_modules' ? [] : walk(full)) : [full];
  });
}

let sources: string[] | undefined;
export function declared(name: string): boolean {
  sources ??= [...walk(path.join(ROOT, 'apps')), ...walk(path.join(ROOT, 'libs'))]
    .filter((f) => /[\\/]src[\\/].*config.*\.ts$/i.test(f) && !/\.(spec|test|d)\.ts$/.test(f))
    .map((f) => fs.readFileSync(f, 'utf8'));
  const word = new RegExp(`(?<![A-Za-z0-9_$])${name}(?![A-Za-z0-9_$])`);
  return sources.some((s) => word.test(s));
}

export const known = (name: string): boolean => declared(name) || ANNOUNCED.includes(name);
