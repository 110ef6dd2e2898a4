import type { EventView } from '@payments/contracts';
import { CursorGoneError, EventFollower, type FetchEventsPage } from './event-follower';

/**
 * The events API with order=recorded over an in-memory table whose array order is the order the
 * events were recorded in: newest first, type, created[gte], starting_after (older),
 * ending_before (the page right after the cursor, still newest first), limit.
 */
function fakeApi(table: EventView[]): { fetch: FetchEventsPage; calls: Record<string, string>[] } {
  const calls: Record<string, string>[] = [];
  const fetch: FetchEventsPage = async (q) => {
    calls.push(q);
    expect(q.order).toBe('recorded');
    const position = (id: string) => table.findIndex((e) => e.id === id);
    let rows = table.map((e, i) => ({ e, i }));
    if (q.type) rows = rows.filter(({ e }) => e.event === q.type);
    if (q['created[gte]']) rows = rows.filter(({ e }) => e.created_at >= q['created[gte]']);
    const limit = Number(q.limit);
    if (q.ending_before) {
      if (position(q.ending_before) < 0) throw new CursorGoneError(`ending_before names no event: ${q.ending_before}`);
      const newer = rows.filter(({ i }) => i > position(q.ending_before));
      return {
        events: newer
          .slice(0, limit)
          .map(({ e }) => e)
          .reverse(),
        has_more: newer.length > limit,
      };
    }
    let older = rows.reverse();
    if (q.starting_after) older = older.filter(({ i }) => i < position(q.starting_after));
    return { events: older.slice(0, limit).map(({ e }) => e), has_more: older.length > limit };
  };
  return { fetch, calls };
}

let n = 0;
// The follower pages and orders events; it never reads their data, so an empty one stands in.
const at = (ms: number, event = 'transaction.success'): EventView =>
  ({
    id: `evt_${String(++n).padStart(6, '0')}`,
    event,
    created_at: new Date(1_700_000_000_000 + ms).toISOString(),
    mode: 'test',
    data: {},
  }) as EventView;
const ids = (events: EventView[]) => events.map((e) => e.id);

describe('EventFollower', () => {
  it('skips what exists at start, then returns each new event once, in the order recorded', async () => {
    const table = [at(0), at(1_000)];
    const follower = new EventFollower(fakeApi(table).fetch);
    await follower.skipExisting();
    expect(await follower.poll()).toEqual([]);

    const [a, b] = [at(3_000), at(2_000)];
    table.push(a, b);
    expect(ids(await follower.poll())).toEqual([a.id, b.id]);
    expect(await follower.poll()).toEqual([]);
  });

  it('returns an event recorded after the last poll however old its own time is', async () => {
    const table = [at(0)];
    const follower = new EventFollower(fakeApi(table).fetch);
    await follower.skipExisting();
    const recent = at(600_000);
    table.push(recent);
    expect(ids(await follower.poll())).toEqual([recent.id]);
    // A dispatcher catching up records an event ten minutes after it happened.
    const late = at(1_000);
    table.push(late);
    expect(ids(await follower.poll())).toEqual([late.id]);
    expect(await follower.poll()).toEqual([]);
  });

  it('with nothing at start, the first poll returns everything recorded since', async () => {
    const table: EventView[] = [];
    const follower = new EventFollower(fakeApi(table).fetch);
    await follower.skipExisting();
    const first = [at(5_000), at(4_000)];
    table.push(...first);
    expect(ids(await follower.poll())).toEqual(ids(first));
  });

  it('pages through more new events than one page holds', async () => {
    const table = [at(0)];
    const { fetch, calls } = fakeApi(table);
    const follower = new EventFollower(fetch);
    await follower.skipExisting();
    const burst = Array.from({ length: 250 }, (_, i) => at(20_000 + i));
    table.push(...burst);
    calls.length = 0;
    expect(ids(await follower.poll())).toEqual(ids(burst));
    expect(calls.length).toBe(3);
    expect(await follower.poll()).toEqual([]);
  });

  it('from --since returns the events created since then, and asks for one type when given one', async () => {
    const old = at(-60_000);
    const recent = at(-1_000);
    const other = at(-500, 'payment.created');
    const table = [old, recent, other];
    const { fetch, calls } = fakeApi(table);
    const follower = new EventFollower(fetch, 'transaction.success');
    follower.startAt(new Date(1_700_000_000_000 - 30_000));
    expect(ids(await follower.poll())).toEqual([recent.id]);
    const next = at(-2_000);
    table.push(at(-40_000), next);
    expect(ids(await follower.poll())).toEqual([next.id]);
    expect(calls.every((q) => q.type === 'transaction.success')).toBe(true);
  });

  describe('when retention prunes the cursor', () => {
    /** Deletes events from the fake table, as the dispatcher's pruning job does. */
    const prune = (table: EventView[], ...gone: EventView[]) => gone.forEach((e) => table.splice(table.indexOf(e), 1));

    it('falls back to an earlier event it returned, and returns nothing twice', async () => {
      const table: EventView[] = [];
      const follower = new EventFollower(fakeApi(table).fetch);
      await follower.skipExisting();
      const [a, b, lateOld] = [at(10_000), at(11_000), at(-40 * 86_400_000)];
      table.push(a, b, lateOld);
      expect(ids(await follower.poll())).toEqual([a.id, b.id, lateOld.id]);
      // The late-recorded event is old: pruned while it is the cursor.
      prune(table, lateOld);
      const next = at(12_000);
      table.push(next);
      expect(ids(await follower.poll())).toEqual([next.id]);
      expect(await follower.poll()).toEqual([]);
    });

    it('when every kept event is gone, skips to the newest with a warning naming the gap', async () => {
      const table = [at(0)];
      const warnings: string[] = [];
      const follower = new EventFollower(fakeApi(table).fetch, undefined, (m) => warnings.push(m));
      await follower.skipExisting();
      const seen = [at(1_000), at(2_000)];
      table.push(...seen);
      expect(ids(await follower.poll())).toEqual(ids(seen));
      const missed = at(3_000);
      table.push(missed);
      prune(table, table[0], ...seen);
      expect(await follower.poll()).toEqual([]);
      expect(warnings).toEqual([expect.stringContaining(`up to ${seen[1].id}`)]);
      expect(warnings[0]).toContain(missed.id);
      const after = at(4_000);
      table.push(after);
      expect(ids(await follower.poll())).toEqual([after.id]);
    });
  });
});
