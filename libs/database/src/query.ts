import type { EntityManager, Sql } from './pg-data-source';

/**
 * Runs SQL and returns its rows. TypeORM's postgres driver answers UPDATE/DELETE … RETURNING
 * with [rows, rowCount] rather than rows; this hides that difference.
 */
export async function queryRows<T>(m: Pick<EntityManager, 'query'>, sql: Sql, params: unknown[] = []): Promise<T[]> {
  const result = await m.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
    return result[0] as T[];
  return result as T[];
}
