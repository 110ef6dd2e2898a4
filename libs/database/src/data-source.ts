import { Client } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { DependencyUnavailableError, describeTarget } from './dependency-error';
import { DataSource, type PoolSettings } from './pg-data-source';

export interface DatabaseOptions {
  serverUrl: string;
  database: string;
  /** The app's TypeORM migration classes, in order. */
  migrations: Function[];
  poolSize?: number;
  applicationName?: string;
}

/** The URL of one database on the server named by `serverUrl` (whatever database that URL names). */
export function databaseUrl(serverUrl: string, database: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The table where TypeORM records applied migrations; the readiness check reads it too. */
export const MIGRATIONS_TABLE = 'schema_migrations';

export function poolSettings(opts: DatabaseOptions): PoolSettings {
  return {
    url: databaseUrl(opts.serverUrl, opts.database),
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A statement that runs this long is a bug or a lock pile-up: fail it rather than hang a request.
    statementTimeoutMillis: 15_000,
    applicationName: opts.applicationName,
  };
}

/** The options of the TypeORM DataSource that runs migrations (only on the migrate path). */
export function migrationRunnerOptions(settings: PoolSettings, migrations: Function[]): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    migrations,
    migrationsTableName: MIGRATIONS_TABLE,
    migrationsTransactionMode: 'each',
    synchronize: false,
    // TypeORM's own logger prints failing queries with their parameters to the console, unredacted.
    // The error is thrown to the caller anyway, which logs it through the redacting logger.
    logging: false,
    applicationName: settings.applicationName,
    extra: {
      max: 2,
      connectionTimeoutMillis: settings.connectionTimeoutMillis,
      idleTimeoutMillis: settings.idleTimeoutMillis,
      statement_timeout: settings.statementTimeoutMillis,
    },
  };
}

function unreachable(serverUrl: string, err: unknown): DependencyUnavailableError {
  return new DependencyUnavailableError(
    'PostgreSQL',
    describeTarget(serverUrl),
    (err as Error).message || String(err),
    'Start it with `npm run infra:up` or point DATABASE_URL at a running server',
  );
}

/** Creates the service's database if it does not exist yet (safe when several replicas race). */
export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (err) {
    throw unreachable(serverUrl, err);
  }
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
      } catch (err) {
        // 42P04 duplicate_database, 23505 unique violation on pg_database: another replica won the race.
        const code = (err as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw err;
      }
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Opens a DataSource; with `migrate`, creates the database if missing and runs pending migrations.
 * Without it the database must exist: serving pods connect as a role that may not create one.
 */
export async function openDatabase(opts: DatabaseOptions & { migrate: boolean }): Promise<DataSource> {
  if (opts.migrate) await ensureDatabase(opts.serverUrl, opts.database);
  const ds = new DataSource(poolSettings(opts), opts.migrations);
  try {
    await ds.initialize();
  } catch (err) {
    // 3D000 invalid_catalog_name: the database was never created, i.e. never migrated.
    if ((err as { code?: string }).code === '3D000') {
      throw new DependencyUnavailableError(
        'PostgreSQL',
        describeTarget(opts.serverUrl),
        `database "${opts.database}" does not exist`,
        'Run this app with the `migrate` argument first (in Kubernetes: its migration Job), ' +
          'which creates and migrates it',
      );
    }
    throw unreachable(opts.serverUrl, err);
  }
  if (opts.migrate) await migrateWithLock(ds);
  return ds;
}

/**
 * Runs pending migrations while holding an advisory lock, so replicas booting together take turns.
 * TypeORM is loaded here and only here: a serving process that does not migrate never loads it.
 */
export async function migrateWithLock(ds: DataSource): Promise<void> {
  const { DataSource: TypeormDataSource } = await import('typeorm');
  const runner = new TypeormDataSource(migrationRunnerOptions(ds.settings, ds.migrations));
  await runner.initialize();
  try {
    await ds.withConnection(async (lock) => {
      await lock.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATIONS_TABLE]);
      try {
        await runner.runMigrations({ transaction: 'each' });
      } finally {
        await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATIONS_TABLE]).catch(() => undefined);
      }
    });
  } finally {
    await runner.destroy();
  }
}
