import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  databaseUrl,
  ensureDatabase,
  migrateWithLock,
  openDatabase,
  pendingMigrations,
  schemaReadinessCheck,
  waitForCurrentSchema,
} from '@payments/database';
import { migrations } from '../../apps/transaction-service/src/migrations';
import { ROOT, infra, runId } from '../support/infra';

/**
 * The database roles of a deployment (k8s/components/database-roles/roles.sql, the SQL the platform runs once per app):
 * the migration role owns the schema, the serving role can only read and write rows of its own database, and a serving
 * pod whose schema is behind says so in readiness until the migration has run.
 */
describe('per-app database roles and the schema readiness check', () => {
  const admin = infra().DATABASE_URL;
  const id = runId();
  const db = `${id}_roles`;
  const migrator = `${id}_migrator`;
  const app = `${id}_app`;
  const as = (role: string, database = 'postgres') => {
    const u = new URL(databaseUrl(admin, database));
    u.username = role;
    u.password = `${role}-pw`;
    return u.toString();
  };
  const open = (role: string) =>
    openDatabase({ serverUrl: as(role), database: db, migrations, migrate: false, poolSize: 2 });

  // A second app's database and roles, to check the first app's roles cannot reach it.
  const otherDb = `${id}_roles_other`;
  const otherRoles = [`${id}_other_migrator`, `${id}_other_app`];

  function createRoles(database: string, migratorRole: string, appRole: string): void {
    const vars = {
      db: database,
      migrator: migratorRole,
      migrator_password: `${migratorRole}-pw`,
      app: appRole,
      app_password: `${appRole}-pw`,
    };
    const args = [admin, '-q', '-X', '-f', join(ROOT, 'k8s/components/database-roles/roles.sql')];
    for (const [k, v] of Object.entries(vars)) args.push('-v', `${k}=${v}`);
    execFileSync('psql', args, { stdio: 'pipe' });
  }

  beforeAll(() => {
    createRoles(db, migrator, app);
    // Idempotent: the platform may run it again (e.g. to rotate a password).
    createRoles(db, migrator, app);
    createRoles(otherDb, otherRoles[0], otherRoles[1]);
  });

  afterAll(async () => {
    const c = new Client({ connectionString: admin });
    await c.connect();
    for (const d of [db, otherDb]) await c.query(`DROP DATABASE IF EXISTS "${d}" WITH (FORCE)`);
    for (const r of [migrator, app, ...otherRoles]) await c.query(`DROP ROLE IF EXISTS "${r}"`);
    await c.end();
  });

  it('keeps a serving pod unready, naming the missing migrations, until the migration role has migrated', async () => {
    const serving = await open(app);
    try {
      const check = schemaReadinessCheck(serving);
      await expect(check()).rejects.toThrow(`schema is behind the code: ${migrations.length} migration(s) not applied`);
      await expect(pendingMigrations(serving)).resolves.toHaveLength(migrations.length);

      // The serving role cannot run the DDL itself.
      await expect(migrateWithLock(serving)).rejects.toThrow(/permission denied/);

      // A service waits (before consuming) until the migration has run.
      const reported: string[][] = [];
      const waiting = waitForCurrentSchema(serving, (pending) => reported.push(pending), 50);
      const migrating = await open(migrator);
      await migrateWithLock(migrating);
      await migrating.destroy();
      await waiting;
      expect(reported[0]).toEqual(migrations.map((m) => m.name));

      await expect(pendingMigrations(serving)).resolves.toEqual([]);
      await expect(check()).resolves.toBeUndefined();
    } finally {
      await serving.destroy();
    }
  });

  it('lets the serving role read and write rows but not change the schema or create databases', async () => {
    const c = new Client({ connectionString: as(app, db) });
    await c.connect();
    try {
      const { rows } = await c.query<{ n: string }>('SELECT count(*) AS n FROM schema_migrations');
      expect(Number(rows[0].n)).toBe(migrations.length);
      await expect(c.query('CREATE TEMP TABLE scratch (id int)')).rejects.toThrow(/permission denied/);
      await expect(c.query('CREATE TABLE sneaky (id int)')).rejects.toThrow(/permission denied/);
      await expect(c.query('DROP TABLE schema_migrations')).rejects.toThrow(/must be owner/);
    } finally {
      await c.end();
    }
    await expect(ensureDatabase(as(app), `${id}_other`)).rejects.toThrow(/permission denied to create database/);
    await expect(ensureDatabase(as(migrator), `${id}_other`)).rejects.toThrow(/permission denied to create database/);
  });

  it('tells a serving pod whose database was never created to run the migration first', async () => {
    await expect(
      openDatabase({ serverUrl: admin, database: `${id}_never_created`, migrations, migrate: false }),
    ).rejects.toThrow(
      `database "${id}_never_created" does not exist. Run this app with the \`migrate\` argument first`,
    );
  });

  it("refuses the roles of one app on another app's database", async () => {
    for (const role of [app, migrator]) {
      const c = new Client({ connectionString: as(role, otherDb) });
      await expect(c.connect()).rejects.toThrow(/permission denied for database/);
      await c.end().catch(() => undefined);
    }
    const own = new Client({ connectionString: as(otherRoles[1], otherDb) });
    await own.connect();
    await own.end();
  });
});
