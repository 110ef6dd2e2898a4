import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/**
 * Addresses of the real PostgreSQL, Redis and Kafka the tests use: from the environment
 * (`npm test` exports them), else from .local/infra.env written by `npm run infra:up`.
 */
export function infra(): { DATABASE_URL: string; REDIS_URL: string; KAFKA_BROKERS: string } {
  const fromFile: Record<string, string> = {};
  const file = join(ROOT, '.local', 'infra.env');
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const m = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
      if (m) fromFile[m[1]] = m[2].replace(/^'(.*)'$/, '$1');
    }
  }
  const pick = (k: string) => {
    const v = process.env[k] ?? fromFile[k];
    if (!v)
      throw new Error(
        `${k} is not set: run the tests with \`npm test\` (it starts PostgreSQL, Redis and Kafka) ` +
          'or run `npm run infra:up` first',
      );
    return v;
  };
  return { DATABASE_URL: pick('DATABASE_URL'), REDIS_URL: pick('REDIS_URL'), KAFKA_BROKERS: pick('KAFKA_BROKERS') };
}

/** A short id unique to this test file's run: namespaces databases, topics and groups. */
export function runId(): string {
  return `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
