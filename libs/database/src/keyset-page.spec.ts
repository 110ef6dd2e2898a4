import type { EntityManager } from './pg-data-source';
import { keysetPage, type KeysetQuery } from './keyset-page';

/**
 * A fake database that answers a page from canned rows as PostgreSQL would: a cursor page joins the
 * cursor row to its page, so it answers no row when the cursor is unknown and one row of nulls when
 * the page is empty. Records what it was asked.
 */
function fakeDb(opts: { cursorFound: boolean; rows: { id: number }[] }) {
  const calls: { sql: string; params: unknown[] }[] = [];
  const db = {
    query: jest.fn(async (sql: string, params: unknown[]): Promise<unknown[]> => {
      calls.push({ sql, params });
      if (!sql.startsWith('WITH cursor_row')) return opts.rows;
      if (!opts.cursorFound) return [];
      return opts.rows.length > 0 ? opts.rows : [{ id: null }];
    }),
  } as unknown as Pick<EntityManager, 'query'>;
  return { db, calls };
}

const base = (page: KeysetQuery['page']): KeysetQuery => ({
  table: 'things',
  columns: 'id, public_id, created_at',
  scope: ['business_id = $1', 'mode = $2'],
  params: [7, 'test'],
  filters: [[(n) => `status = ${n}`, 'success']],
  cursorColumn: 'public_id',
  page,
  unknownCursor: (field, value) => new Error(`${field} ${value}`),
});

describe('keysetPage', () => {
  it('reads one row more than the page to know whether more follow, newest first', async () => {
    const { db, calls } = fakeDb({ cursorFound: true, rows: [{ id: 3 }, { id: 2 }, { id: 1 }] });
    const page = await keysetPage<{ id: number }>(db, base({ limit: 2 }));
    expect(page).toEqual({ rows: [{ id: 3 }, { id: 2 }], hasMore: true });
    expect(calls).toHaveLength(1);
    expect(calls[0].sql).toMatch(
      new RegExp(
        String.raw`^SELECT id, public_id, created_at FROM things ` +
          String.raw`WHERE business_id = \$1 AND mode = \$2 AND status = \$3` +
          String.raw`\s+ORDER BY created_at DESC, id DESC OFFSET \$4 LIMIT \$5$`,
      ),
    );
    expect(calls[0].params).toEqual([7, 'test', 'success', 0, 3]);
  });

  it('starting_after: looks the cursor up inside the scope only and reads older rows, in one statement', async () => {
    const { db, calls } = fakeDb({ cursorFound: true, rows: [{ id: 1 }] });
    const page = await keysetPage<{ id: number }>(db, base({ limit: 2, starting_after: 'thg_1' }));
    expect(page).toEqual({ rows: [{ id: 1 }], hasMore: false });
    expect(calls).toHaveLength(1);
    expect(calls[0].sql).toContain(
      'WITH cursor_row AS (SELECT created_at AS k0, id AS k1 FROM things ' +
        'WHERE public_id = $3 AND business_id = $1 AND mode = $2)',
    );
    expect(calls[0].sql).toContain('(created_at, id) < (cursor_row.k0, cursor_row.k1) AND status = $4');
    expect(calls[0].sql).toMatch(/ORDER BY p\.created_at DESC, p\.id DESC$/);
    expect(calls[0].params).toEqual([7, 'test', 'thg_1', 'success', 0, 3]);
  });

  it('ending_before: reads newer rows oldest first and answers them newest first', async () => {
    const { db, calls } = fakeDb({ cursorFound: true, rows: [{ id: 5 }, { id: 6 }, { id: 7 }] });
    const page = await keysetPage<{ id: number }>(db, {
      ...base({ limit: 2, ending_before: 'thg_4' }),
      orderBy: ['id'],
    });
    expect(page).toEqual({ rows: [{ id: 6 }, { id: 5 }], hasMore: true });
    expect(calls).toHaveLength(1);
    expect(calls[0].sql).toContain('(id) > (cursor_row.k0)');
    expect(calls[0].sql).toContain('ORDER BY id ASC');
  });

  it('a known cursor with nothing beyond it: an empty page, not an error', async () => {
    const { db } = fakeDb({ cursorFound: true, rows: [] });
    await expect(keysetPage(db, base({ limit: 2, starting_after: 'thg_1' }))).resolves.toEqual({
      rows: [],
      hasMore: false,
    });
  });

  it('refuses a cursor outside the scope with the caller’s error', async () => {
    const { db, calls } = fakeDb({ cursorFound: false, rows: [{ id: 1 }] });
    await expect(keysetPage(db, base({ limit: 2, ending_before: 'thg_x' }))).rejects.toThrow('ending_before thg_x');
    expect(calls).toHaveLength(1);
  });

  it('applies skip after the cursor', async () => {
    const { db, calls } = fakeDb({ cursorFound: true, rows: [] });
    await keysetPage(db, base({ limit: 5, skip: 10, starting_after: 'thg_1' }));
    expect(calls[0].params.slice(-2)).toEqual([10, 6]);
  });
});
