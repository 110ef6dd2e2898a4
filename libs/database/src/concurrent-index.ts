/** What a migration's QueryRunner offers that these helpers use (structural: no TypeORM import here). */
interface Runner {
  query(sql: string): Promise<unknown>;
}

/**
 * Builds an index without blocking writes, for a migration with `transaction = false` (CONCURRENTLY cannot run in a
 * transaction). A failed build leaves an INVALID index that `IF NOT EXISTS` would take as done, so it is dropped first.
 * `definition` is what follows `ON`, e.g. `ledger_entries (transaction_public_id)`.
 */
export async function createIndexConcurrently(q: Runner, name: string, definition: string): Promise<void> {
  const invalid = (await q.query(
    `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname = '${name}' AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`,
  )) as unknown[];
  if (invalid.length > 0) await q.query(`DROP INDEX CONCURRENTLY ${name}`);
  await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${definition}`);
}

/** The down of createIndexConcurrently. */
export async function dropIndexConcurrently(q: Runner, name: string): Promise<void> {
  await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
}
