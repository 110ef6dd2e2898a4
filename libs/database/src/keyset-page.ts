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
  /** The columns each row is read with (columnList): the row type's. They must include `id` and the order's columns. */
  columns: string;
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
  /** The order, newest first; the last column must be unique. Default: created_at, id (every paged table has one). */
  orderBy?: string[];
  /** A list kept oldest first: `starting_after` then goes to newer objects, `ending_before` to older ones. */
  oldestFirst?: boolean;
  page: PageRequest;
  /** The error for a cursor that names no row in scope (never another tenant's row). */
  unknownCursor: (field: 'starting_after' | 'ending_before', value: string) => Error;
}

/**
 * One page by keyset: rows after `starting_after` or before `ending_before`, in list order (newest first unless
 * `oldestFirst`), and whether more lie beyond. The cursor row is looked up and compared in the same statement: one
 * round trip, and timestamps keep their microseconds.
 */
export async function keysetPage<T>(
  db: Pick<EntityManager, 'query'>,
  q: KeysetQuery,
): Promise<{ rows: T[]; hasMore: boolean }> {
  const order = q.orderBy ?? ['created_at', 'id'];
  const params = [...q.params];
  const where = [...q.scope];
  const field =
    q.page.ending_before !== undefined
      ? 'ending_before'
      : q.page.starting_after !== undefined
        ? 'starting_after'
        : null;
  const backwards = field === 'ending_before';
  // Whether this page reads towards newer rows (ascending): it then compares with >, and a backwards
  // page turns round.
  const ascending = backwards !== (q.oldestFirst ?? false);
  if (field) {
    params.push(q.page[field]);
    where.push(
      `(${order.join(', ')}) ${ascending ? '>' : '<'} (${order.map((_, i) => `cursor_row.k${i}`).join(', ')})`,
    );
  }
  for (const [condition, value] of q.filters ?? []) {
    params.push(value);
    where.push(condition(`$${params.length}`));
  }
  params.push(q.page.skip ?? 0, q.page.limit + 1);
  const direction = ascending ? 'ASC' : 'DESC';
  const orderBy = (alias: string) => order.map((c) => `${alias}${c} ${direction}`).join(', ');
  const page = `SELECT ${q.columns} FROM ${q.table} WHERE ${where.join(' AND ')}
      ORDER BY ${orderBy('')} OFFSET $${params.length - 1} LIMIT $${params.length}`;
  if (!field) return pageOf(await queryRows<T>(db, page, params), q.page.limit, false);
  // The cursor row joined to its page: no row at all when the cursor names no row in scope, one
  // row of nulls (no id) when it does but its page is empty.
  const cursorKeys = order.map((c, i) => `${c} AS k${i}`).join(', ');
  const cursorWhere = `${q.cursorColumn} = $${q.params.length + 1} AND ${q.scope.join(' AND ')}`;
  const rows = await queryRows<T & { id: unknown }>(
    db,
    `WITH cursor_row AS (SELECT ${cursorKeys} FROM ${q.table} WHERE ${cursorWhere})
     SELECT p.* FROM cursor_row LEFT JOIN LATERAL (${page}) p ON true ORDER BY ${orderBy('p.')}`,
    params,
  );
  if (rows.length === 0) throw q.unknownCursor(field, q.page[field] as string);
  return pageOf(rows[0].id === null ? [] : rows, q.page.limit, backwards);
}

/** The page from its rows read one beyond the limit, in the list's order. */
function pageOf<T>(rows: T[], limit: number, backwards: boolean): { rows: T[]; hasMore: boolean } {
  const page = rows.slice(0, limit);
  return { rows: backwards ? page.reverse() : page, hasMore: rows.length > limit };
}
