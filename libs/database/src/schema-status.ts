import { MIGRATIONS_TABLE } from './data-source';
import { migrationNames } from './migration-names';
import type { DataSource } from './pg-data-source';

/**
 * The app's migrations that the database has not applied yet (names, in the app's order). Plain
 * SQL on the table TypeORM keeps, so a serving process checks its schema without loading TypeORM.
 */
export async function pendingMigrations(ds: DataSource): Promise<string[]> {
  const table = MIGRATIONS_TABLE;
  const known = migrationNames(ds.migrations);
  // to_regclass is NULL before the first migration created the table: then everything is pending.
  const [{ present }] = (await ds.query('SELECT to_regclass($1) IS NOT NULL AS present', [table])) as {
    present: boolean;
  }[];
  if (!present) return known;
  const rows = (await ds.query(`SELECT name FROM "${table.replace(/"/g, '')}"`)) as { name: string }[];
  const applied = new Set(rows.map((r) => r.name));
  return known.filter((name) => !applied.has(name));
}

/**
 * A readiness check failing while the schema is behind the code (its migration Job has not run), so the pod takes no
 * traffic on a schema it cannot use. A schema ahead is fine (migrations only add); once current, the answer is kept.
 */
export function schemaReadinessCheck(ds: DataSource): () => Promise<void> {
  let current = false;
  return async () => {
    if (current) return;
    const pending = await pendingMigrations(ds);
    if (pending.length > 0) {
      const shown = pending.slice(0, 3).join(', ') + (pending.length > 3 ? ', ...' : '');
      throw new Error(
        `schema is behind the code: ${pending.length} migration(s) not applied (${shown}); ` +
          "run this release's migration Job",
      );
    }
    current = true;
  };
}

/**
 * Resolves once the database has every migration of the app, checking every `intervalMs` and
 * telling `onBehind` what is missing meanwhile. A service waits here before it consumes or
 * relays events, which on an older schema would fail and be dead-lettered.
 */
export async function waitForCurrentSchema(
  ds: DataSource,
  onBehind: (pending: string[]) => void,
  intervalMs = 5_000,
): Promise<void> {
  for (;;) {
    const pending = await pendingMigrations(ds);
    if (pending.length === 0) return;
    onBehind(pending);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
