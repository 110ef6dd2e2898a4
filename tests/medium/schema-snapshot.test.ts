import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { databaseUrl, openDatabase } from '@payments/database';
import { migrations as gateway } from '../../apps/gateway/src/migrations';
import { migrations as splitLedger } from '../../apps/split-ledger-service/src/migrations';
import { migrations as transactions } from '../../apps/transaction-service/src/migrations';
import { migrations as webhooks } from '../../apps/webhook-dispatcher/src/migrations';
import { infra, runId } from '../support/infra';

/**
 * The SQL migrations are the only schema source (docs/decisions/0008-schema-source.md). Each
 * service's migrations run on an empty database and the resulting catalogue is compared with the
 * snapshot committed in tests/medium/schema/: a migration that changes the schema must update
 * the snapshot in the same change, so the difference is reviewed. Regenerate with
 * `UPDATE_SCHEMA_SNAPSHOT=1 npx jest tests/medium/schema-snapshot.test.ts`.
 */
const SERVICES: Array<[string, Function[]]> = [
  ['gateway', gateway],
  ['transaction-service', transactions],
  ['split-ledger-service', splitLedger],
  ['webhook-dispatcher', webhooks],
];

const CATALOGUE = `
  SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
         || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
         || COALESCE(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '') AS line
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid AND c.relkind IN ('r', 'p', 'v')
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE a.attnum > 0 AND NOT a.attisdropped
  UNION ALL
  SELECT 'constraint ' || c.relname || '.' || k.conname || ' ' || pg_get_constraintdef(k.oid)
    FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
  UNION ALL
  SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
  UNION ALL
  SELECT 'trigger ' || pg_get_triggerdef(t.oid)
    FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
   WHERE NOT t.tgisinternal
  UNION ALL
  SELECT 'function ' || p.proname || '(' || pg_get_function_arguments(p.oid) || ')'
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace AND n.nspname = 'public'
  ORDER BY 1`;

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

describe('database schema produced by the migrations', () => {
  const { DATABASE_URL } = infra();
  const id = runId();

  it.each(SERVICES)(
    '%s matches the committed snapshot',
    async (service, list) => {
      const name = `${id}_schema_${service.replace(/-/g, '_')}`;
      const ds = await openDatabase({
        serverUrl: DATABASE_URL,
        database: name,
        migrations: list,
        migrate: true,
        applicationName: 'schema-snapshot',
      });
      let actual: string;
      try {
        const rows: Array<{ line: string }> = await ds.query(CATALOGUE);
        actual = rows.map((r) => r.line).join('\n') + '\n';
      } finally {
        await ds.destroy();
        await dropDatabase(databaseUrl(DATABASE_URL, 'postgres'), name);
      }

      const file = join(__dirname, 'schema', `${service}.txt`);
      if (process.env.UPDATE_SCHEMA_SNAPSHOT === '1') writeFileSync(file, actual);
      expect(existsSync(file)).toBe(true);
      expect(actual).toBe(readFileSync(file, 'utf8'));
    },
    60_000,
  );
});
