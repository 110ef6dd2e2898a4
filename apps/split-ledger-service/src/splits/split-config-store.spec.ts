import type { EntityManager } from '@payments/database';
import { SplitConfigStore } from './split-config-store';

/** A fake database: the page from canned rows (the cursor always known), the count as given; records statements. */
function fakeDb(rows: { id: string }[], total: number) {
  const sql: string[] = [];
  const db = {
    query: async (text: string): Promise<unknown[]> => {
      sql.push(text);
      if (text.startsWith('SELECT count(*)')) return [{ n: total }];
      return rows;
    },
  } as unknown as Pick<EntityManager, 'query'>;
  return { db, counts: () => sql.filter((s) => s.startsWith('SELECT count(*)')).length };
}

const configs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(n - i) }));

describe('SplitConfigStore.pageOwned', () => {
  const store = new SplitConfigStore();

  it('without a limit answers the whole list and counts it from the rows, without a count statement', async () => {
    const { db, counts } = fakeDb(configs(3), 3);
    const page = await store.pageOwned(db, 7, 'test', {});
    expect(page).toMatchObject({ hasMore: false, count: 3 });
    expect(page.rows).toHaveLength(3);
    expect(counts()).toBe(0);
  });

  it('a first page that holds the whole list needs no count either', async () => {
    const { db, counts } = fakeDb(configs(2), 2);
    expect(await store.pageOwned(db, 7, 'test', { limit: 5 })).toMatchObject({ hasMore: false, count: 2 });
    expect(counts()).toBe(0);
  });

  it('a page with more beyond it counts every config of the business', async () => {
    const { db, counts } = fakeDb(configs(3), 9);
    const page = await store.pageOwned(db, 7, 'test', { limit: 2 });
    expect(page).toMatchObject({ hasMore: true, count: 9 });
    expect(page.rows).toHaveLength(2);
    expect(counts()).toBe(1);
  });

  it('a page after a cursor or a skip counts every config, not the rows it holds', async () => {
    for (const request of [{ starting_after: 'c' }, { ending_before: 'c', limit: 10 }, { skip: 1 }]) {
      const { db, counts } = fakeDb(configs(1), 4);
      expect(await store.pageOwned(db, 7, 'test', request)).toMatchObject({ hasMore: false, count: 4 });
      expect(counts()).toBe(1);
    }
  });
});
