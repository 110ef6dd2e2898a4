import type { EntityManager } from './pg-data-source';
import { keysetPage, type KeysetQuery } from './keyset-page';

/** A fake database that answers the cursor lookup and the page from canned rows, and records what it was asked. */
function fakeDb(opts: { cursorFound: boolean; rows: { id: number }[] }) {
  const calls: { sql: string; params: unknown[] }[] = [];
  const db = {
    query: jest.fn(async (sql: string, params: unknown[]): Promise<unknown[]> => {
      calls.push({ sql, params });
      if (sql.startsWith('SELECT id::text AS id')) return opts.cursorFound ? [{ id: '42' }] : [];
      return opts.rows;
    }),
  } as unknown as Pick<EntityManager, 'query'>;
  return { db, calls };
}

const base = (page: KeysetQuery['page']): KeysetQuery => ({
  table: 'things',
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
    expect(calls[0].sql).toMatch(/WHERE business_id = \$1 AND mode = \$2 AND status = \$3\s+ORDER BY created_at DESC, id DESC OFFSET \$4 LIMIT \$5/);
    expect(calls[0].params).toEqual([7, 'test', 'success', 0, 3]);
  });

  it('starting_after: looks the cursor up inside the scope only, then reads older rows', async () => {
    const { db, calls } = fakeDb({ cursorFound: true, rows: [{ id: 1 }] });
    const page = await keysetPage<{ id: number }>(db, base({ limit: 2, starting_after: 'thg_1' }));
    expect(page).toEqual({ rows: [{ id: 1 }], hasMore: false });
    expect(calls[0]).toEqual({ sql: 'SELECT id::text AS id FROM things WHERE public_id = $3 AND business_id = $1 AND mode = $2', params: [7, 'test', 'thg_1'] });
    expect(calls[1].sql).toContain('(created_at, id) < (SELECT c.created_at, c.id FROM things c WHERE c.id = $3)');
    expect(calls[1].params).toEqual([7, 'test', '42', 'success', 0, 3]);
  });

  it('ending_before: reads newer rows oldest first and answers them newest first', async () => {
    const { db, calls } = fakeDb({ cursorFound: true, rows: [{ id: 5 }, { id: 6 }, { id: 7 }] });
    const page = await keysetPage<{ id: number }>(db, { ...base({ limit: 2, ending_before: 'thg_4' }), orderBy: ['id'] });
    expect(page).toEqual({ rows: [{ id: 6 }, { id: 5 }], hasMore: true });
    expect(calls[1].sql).toContain('(id) > (SELECT c.id FROM things c WHERE c.id = $3)');
    expect(calls[1].sql).toContain('ORDER BY id ASC');
  });

  it('refuses a cursor outside the scope with the caller’s error, reading no page', async () => {
    const { db, calls } = fakeDb({ cursorFound: false, rows: [{ id: 1 }] });
    await expect(keysetPage(db, base({ limit: 2, ending_before: 'thg_x' }))).rejects.toThrow('ending_before thg_x');
    expect(calls).toHaveLength(1);
  });

  it('applies skip after the cursor', async () => {
    const { db, calls } = fakeDb({ cursorFound: true, rows: [] });
    await keysetPage(db, base({ limit: 5, skip: 10, starting_after: 'thg_1' }));
    expect(calls[1].params.slice(-2)).toEqual([10, 6]);
  });
});
