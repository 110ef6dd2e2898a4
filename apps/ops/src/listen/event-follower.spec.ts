import type { EventView } from '@payments/contracts';
import { EventFollower, type FetchEventsPage } from './event-follower';

/** The events API over an in-memory table: newest first, created[gte], type, starting_after, limit. */
function fakeApi(table: EventView[]): { fetch: FetchEventsPage; calls: Record<string, string>[] } {
  const calls: Record<string, string>[] = [];
  const fetch: FetchEventsPage = async (q) => {
    calls.push(q);
    const key = (e: EventView) => `${e.created_at}|${e.id}`;
    let rows = [...table].sort((a, b) => (key(a) < key(b) ? 1 : -1));
    if (q.type) rows = rows.filter((e) => e.event === q.type);
    if (q['created[gte]']) rows = rows.filter((e) => e.created_at >= q['created[gte]']);
    if (q.starting_after) {
      const cursor = table.find((e) => e.id === q.starting_after)!;
      rows = rows.filter((e) => key(e) < key(cursor));
    }
    const limit = Number(q.limit);
    return { events: rows.slice(0, limit), has_more: rows.length > limit };
  };
  return { fetch, calls };
}

let n = 0;
// The follower pages and orders events; it never reads their data, so an empty one stands in.
const at = (ms: number, event = 'transaction.success'): EventView =>
  ({ id: `evt_${String(++n).padStart(6, '0')}`, event, created_at: new Date(1_700_000_000_000 + ms).toISOString(), mode: 'test', data: {} }) as EventView;
const ids = (events: EventView[]) => events.map((e) => e.id);

describe('EventFollower', () => {
  it('skips what exists at start, then returns each new event once, oldest first', async () => {
    const table = [at(0), at(1_000)];
    const { fetch } = fakeApi(table);
    const follower = new EventFollower(fetch, 10_000);
    await follower.skipExisting();
    expect(await follower.poll()).toEqual([]);

    const [a, b] = [at(2_000), at(3_000)];
    table.push(b, a);
    expect(ids(await follower.poll())).toEqual([a.id, b.id]);
    expect(await follower.poll()).toEqual([]);
  });

  it('still returns an event that commits after a later one was seen, within the overlap', async () => {
    const table: EventView[] = [];
    const follower = new EventFollower(fakeApi(table).fetch, 10_000);
    await follower.skipExisting();
    const early = at(5_000);
    const late = at(6_000);
    table.push(late);
    expect(ids(await follower.poll())).toEqual([late.id]);
    table.push(early);
    expect(ids(await follower.poll())).toEqual([early.id]);
    expect(await follower.poll()).toEqual([]);
  });

  it('pages through more new events than one page holds', async () => {
    const table: EventView[] = [];
    const { fetch, calls } = fakeApi(table);
    const follower = new EventFollower(fetch, 10_000);
    await follower.skipExisting();
    const burst = Array.from({ length: 250 }, (_, i) => at(20_000 + i));
    table.push(...burst);
    calls.length = 0;
    expect(ids(await follower.poll())).toEqual(ids(burst));
    expect(calls.length).toBe(3);
  });

  it('from --since returns the events created since then, and asks for one type when given one', async () => {
    const old = at(-60_000);
    const recent = at(-1_000);
    const other = at(-500, 'payment.created');
    const { fetch, calls } = fakeApi([old, recent, other]);
    const follower = new EventFollower(fetch, 10_000, 'transaction.success');
    follower.startAt(new Date(1_700_000_000_000 - 30_000));
    expect(ids(await follower.poll())).toEqual([recent.id]);
    expect(calls.every((q) => q.type === 'transaction.success')).toBe(true);
  });
});
