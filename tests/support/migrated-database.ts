import { Client } from 'pg';
import { databaseUrl, openDatabase, type DataSource } from '@payments/database';
import { migrations as gateway } from '../../apps/gateway/src/migrations';
import { migrations as ledger } from '../../apps/split-ledger-service/src/migrations';
import { migrations as transactions } from '../../apps/transaction-service/src/migrations';
import { migrations as webhooks } from '../../apps/webhook-dispatcher/src/migrations';
import { infra, runId } from './infra';

const MIGRATIONS = {
  gateway,
  'transaction-service': transactions,
  'split-ledger-service': ledger,
  'webhook-dispatcher': webhooks,
};
export type AppWithDatabase = keyof typeof MIGRATIONS;

export interface MigratedDatabase {
  ds: DataSource;
  /** The database's own name and connection string (for a second, observing connection). */
  name: string;
  url: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * The medium tier's fixture: a database of its own for one app, migrated exactly as the app's
 * migration Job migrates it, on the test run's PostgreSQL. Stores and use cases then run in the
 * test's process against it (no service processes).
 */
export async function migratedDatabase(app: AppWithDatabase, label: string): Promise<MigratedDatabase> {
  const { DATABASE_URL } = infra();
  const name = `${runId()}_${label.replace(/[^a-z0-9_]/gi, '_')}`;
  const ds = await openDatabase({
    serverUrl: DATABASE_URL,
    database: name,
    migrations: MIGRATIONS[app],
    migrate: true,
    applicationName: `${label}-test`,
  });
  return {
    ds,
    name,
    url: databaseUrl(DATABASE_URL, name),
    async drop() {
      await ds.destroy();
      const admin = new Client({ connectionString: databaseUrl(DATABASE_URL, 'postgres') });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => admin.end());
    },
  };
}
