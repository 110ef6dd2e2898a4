import { DeliveryReconciler } from './delivery-reconciler';
import type { DeliveryStore, OverdueCursor, OverdueRow } from './delivery-store';

/** Overdue rows in (next_attempt_at, id) order, paged as DeliveryStore.overdue pages them. */
function fakeStore(count: number) {
  const base = Date.UTC(2026, 0, 1);
  const rows: OverdueRow[] = Array.from({ length: count }, (_, i) => ({
    id: String(i + 1),
    attempts: 0,
    enqueue_count: 1,
    next_attempt_at: new Date(base + i * 10),
  }));
  const released: string[] = [];
  const reads: number[] = [];
  const store = {
    overdue: async (_grace: number, limit: number, after: OverdueCursor | null) => {
      const from = after ? rows.findIndex((r) => r.id === after.id) + 1 : 0;
      reads.push(from);
      return rows
        .filter((r) => !released.includes(r.id))
        .filter((r) => rows.indexOf(r) >= from)
        .slice(0, limit);
    },
    release: async (id: string) => {
      released.push(id);
      return true;
    },
  } as unknown as Pick<DeliveryStore, 'overdue' | 'release'>;
  return { store, released, reads };
}

describe('DeliveryReconciler', () => {
  // Every row but the last has a job still waiting behind a busy callback; the last one's job is gone.
  const lostLast = (count: number) => async (row: OverdueRow) => (row.id === String(count) ? 'unknown' : 'delayed');

  it('reads past more than a page of live rows to the one whose job was lost, in one pass', async () => {
    const { store, released, reads } = fakeStore(2_501);
    const reconciler = new DeliveryReconciler(store, lostLast(2_501), () => false, {
      graceSeconds: 5,
      pageSize: 1_000,
      pagesPerPass: 10,
    });
    expect(await reconciler.pass()).toBe(1);
    expect(released).toEqual(['2501']);
    expect(reads).toEqual([0, 1_000, 2_000]);
    // The next pass starts from the beginning again.
    expect(await reconciler.pass()).toBe(0);
    expect(reads.slice(3)).toEqual([0, 1_000, 2_000]);
  });

  it('goes on where its page budget stopped it in the next pass', async () => {
    const { store, released } = fakeStore(250);
    const reconciler = new DeliveryReconciler(store, lostLast(250), () => false, {
      graceSeconds: 5,
      pageSize: 100,
      pagesPerPass: 1,
    });
    expect([await reconciler.pass(), await reconciler.pass()]).toEqual([0, 0]);
    expect(await reconciler.pass()).toBe(1);
    expect(released).toEqual(['250']);
  });

  it('leaves alone the rows this process holds and those with a live job, and hands back the others', async () => {
    const { store, released } = fakeStore(6);
    const states: Record<string, string> = {
      '1': 'waiting',
      '2': 'active',
      '3': 'completed',
      '4': 'failed',
      '5': 'unknown',
      '6': 'unknown',
    };
    const reconciler = new DeliveryReconciler(
      store,
      async (r) => states[r.id],
      (id) => id === '6',
      { graceSeconds: 5, pageSize: 1_000, pagesPerPass: 10 },
    );
    expect(await reconciler.pass()).toBe(3);
    expect(released).toEqual(['3', '4', '5']);
  });
});
