import type { EntityManager } from './pg-data-source';
import { queryRows } from './query';

/** A cursor page request, newest first: `starting_after` goes to older objects, `ending_before` to newer ones. */
export interface PageRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  /** Rows skipped after the cursor (or from the start): offset paging, kept where a list had it. */
  skip?: number;
}

/** A filter condition built around its value's placeholder, e.g. `(n) => `status = ${n}``, and the value. */
export type Filter = [condition: (placeholder: string) => string, value: unknown];

export interface KeysetQuery {
  /** The store's own table. */
  table: string;
  /**
   * Conditions that scope the list to its owner (business, mode, parent object), on unqualified
   * columns with $1…$n placeholders. A cursor must name a row inside this scope.
   */
  scope: string[];
  /** The values of the scope's placeholders. */
  params: unknown[];
  /** Further conditions (filters), each given its placeholder; a cursor need not match them, as in Stripe's API. */
  filters?: Filter[];
  /** The column a cursor names a row by (the id the API hands out). */
  cursorColumn: string;
  /** The order, newest first; the last column must be unique. Default: created_at, id. Every table paged has a unique `id`. */
  orderBy?: string[];
  /** A list kept oldest first: `starting_after` then goes to newer objects, `ending_before` to older ones. */
  oldestFirst?: boolean;
  page: PageRequest;
  /** The error for a cursor that names no row in scope (never another tenant's row). */
  unknownCursor: (field: 'starting_after' | 'ending_before', value: string) => Error;
}

/**
 * One page of a list by keyset: rows strictly after `starting_after` in the list's order, or
 * strictly before `ending_before`, in the list's order either way (newest first unless
 * `oldestFirst`), and whether more rows lie beyond the page in the direction of travel. The cursor row's position is compared in SQL, so
 * timestamps keep their microseconds.
 */
export async function keysetPage<T>(db: Pick<EntityManager, 'query'>, q: KeysetQuery): Promise<{ rows: T[]; hasMore: boolean }> {
  const order = q.orderBy ?? ['created_at', 'id'];
  const params = [...q.params];
  const where = [...q.scope];
  const field = q.page.ending_before !== undefined ? 'ending_before' : q.page.starting_after !== undefined ? 'starting_after' : null;
  const backwards = field === 'ending_before';
  // Whether this page reads towards newer rows (ascending), and so compares with > and turns round if it is a backwards page.
  const ascending = backwards !== (q.oldestFirst ?? false);
  if (field) {
    const value = q.page[field] as string;
    const [cursor] = await queryRows<{ id: string }>(
      db,
      `SELECT id::text AS id FROM ${q.table} WHERE ${q.cursorColumn} = $${params.length + 1} AND ${q.scope.join(' AND ')}`,
      [...params, value],
    );
    if (!cursor) throw q.unknownCursor(field, value);
    params.push(cursor.id);
    where.push(`(${order.join(', ')}) ${ascending ? '>' : '<'} (SELECT ${order.map((c) => `c.${c}`).join(', ')} FROM ${q.table} c WHERE c.id = $${params.length})`);
  }
  for (const [condition, value] of q.filters ?? []) {
    params.push(value);
    where.push(condition(`$${params.length}`));
  }
  params.push(q.page.skip ?? 0, q.page.limit + 1);
  const direction = ascending ? 'ASC' : 'DESC';
  const rows = await queryRows<T>(
    db,
    `SELECT * FROM ${q.table} WHERE ${where.join(' AND ')}
      ORDER BY ${order.map((c) => `${c} ${direction}`).join(', ')} OFFSET $${params.length - 1} LIMIT $${params.length}`,
    params,
  );
  const hasMore = rows.length > q.page.limit;
  const page = rows.slice(0, q.page.limit);
  return { rows: backwards ? page.reverse() : page, hasMore };
}
