import type { EventView } from '@payments/contracts';

export interface EventsPage {
  events: EventView[];
  has_more: boolean;
}

/** One GET /v1/events with these query parameters. */
export type FetchEventsPage = (query: Record<string, string>) => Promise<EventsPage>;

const PAGE_SIZE = 100;

/**
 * Follows a business's new events through the events API (newest first, cursor-paged). Each poll
 * re-reads a window of `overlapMs` before the newest event it has seen and skips the ids it has
 * already returned: an event whose transaction committed a little after a later one (so it is
 * listed behind an event already seen) is still returned, and none is returned twice.
 */
export class EventFollower {
  private since: number | undefined;
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly fetchPage: FetchEventsPage,
    private readonly overlapMs: number,
    private readonly type?: string,
  ) {}

  /** Default start: everything that exists now counts as seen, only later events are returned. */
  async skipExisting(): Promise<void> {
    const [latest] = (await this.fetchPage(this.query({ limit: '1' }))).events;
    if (!latest) return;
    this.since = Date.parse(latest.created_at) - this.overlapMs;
    for (const e of await this.scan()) this.remember(e);
  }

  /** Start at an instant instead: events created at or after it are returned too. */
  startAt(since: Date): void {
    this.since = since.getTime();
  }

  /** The events not returned before, oldest first. */
  async poll(): Promise<EventView[]> {
    const fresh = (await this.scan()).filter((e) => !this.seen.has(e.id)).reverse();
    for (const e of fresh) this.remember(e);
    if (this.seen.size > 0) {
      const newest = Math.max(...this.seen.values());
      this.since = Math.max(this.since ?? -Infinity, newest - this.overlapMs);
      // Older than the window: never listed again, so no need to remember them.
      for (const [id, created] of this.seen) if (created < this.since) this.seen.delete(id);
    }
    return fresh;
  }

  /** Every event of the window, newest first. */
  private async scan(): Promise<EventView[]> {
    const all: EventView[] = [];
    let after: string | undefined;
    for (;;) {
      const extra: Record<string, string> = { limit: String(PAGE_SIZE) };
      if (this.since !== undefined) extra['created[gte]'] = new Date(this.since).toISOString();
      if (after) extra.starting_after = after;
      const page = await this.fetchPage(this.query(extra));
      all.push(...page.events);
      if (!page.has_more || page.events.length === 0) return all;
      after = page.events[page.events.length - 1].id;
    }
  }

  private query(extra: Record<string, string>): Record<string, string> {
    return this.type ? { ...extra, type: this.type } : extra;
  }

  private remember(e: EventView): void {
    this.seen.set(e.id, Date.parse(e.created_at));
  }
}
