import type { EventView } from '@payments/contracts';

export interface EventsPage {
  events: EventView[];
  has_more: boolean;
}

/** One GET /v1/events with these query parameters. */
export type FetchEventsPage = (query: Record<string, string>) => Promise<EventsPage>;

/** The API no longer knows the `ending_before` event (pruned by retention, or deleted). */
export class CursorGoneError extends Error {}

const PAGE_SIZE = 100;
/** Earlier cursors kept to fall back to when the newest one is pruned. */
const ANCHORS = 10;

/**
 * Follows a business's new events in recorded order, paging with `ending_before` the newest returned, so an event
 * recorded late is still returned, once. If retention prunes the cursor it goes on from the newest of its last events
 * still listed, or warns of the gap (docs/operations.md).
 */
export class EventFollower {
  /** The last events returned (or skipped at start), oldest first; the last is the cursor. */
  private anchors: string[] = [];
  private since: Date | undefined;

  constructor(
    private readonly fetchPage: FetchEventsPage,
    private readonly type?: string,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** Default start: everything recorded now counts as seen, only later events are returned. */
  async skipExisting(): Promise<void> {
    const newest = (await this.fetchPage(this.query({ limit: '1' }))).events[0]?.id;
    this.anchors = newest ? [newest] : [];
  }

  /** Start with the events created at or after an instant instead (recorded before now or later). */
  startAt(since: Date): void {
    this.since = since;
  }

  /** The events recorded since the last poll, oldest first. */
  async poll(): Promise<EventView[]> {
    const fresh = this.anchors.length === 0 ? await this.everything() : await this.fromAnchors();
    this.anchors = [...this.anchors, ...fresh.map((e) => e.id)].slice(-ANCHORS);
    return fresh;
  }

  /**
   * The events after the newest anchor still listed. Recorded order never puts a new event before
   * one already listed, so what follows an older anchor and was returned before is exactly the
   * anchors after it.
   */
  private async fromAnchors(): Promise<EventView[]> {
    for (let i = this.anchors.length - 1; i >= 0; i--) {
      try {
        const after = await this.newerThan(this.anchors[i]);
        const returned = new Set(this.anchors.slice(i + 1));
        return after.filter((e) => !returned.has(e.id));
      } catch (err) {
        if (!(err instanceof CursorGoneError)) throw err;
      }
    }
    const lost = this.anchors[this.anchors.length - 1];
    await this.skipExisting();
    this.warn(
      `the last events returned (up to ${lost}) are no longer listed (pruned by retention); ` +
        `continuing after the newest event ${this.anchors[0] ?? '(none)'}: ` +
        'events recorded between them were not forwarded',
    );
    return [];
  }

  /** Pages towards newer events from the cursor: each page holds the events right after it. */
  private async newerThan(cursor: string): Promise<EventView[]> {
    const all: EventView[] = [];
    let before = cursor;
    for (;;) {
      const page = await this.fetchPage(this.query({ limit: String(PAGE_SIZE), ending_before: before }));
      const forward = [...page.events].reverse();
      all.push(...forward);
      if (!page.has_more || forward.length === 0) return all;
      before = forward[forward.length - 1].id;
    }
  }

  /** No cursor yet: every listed event, paged from the newest to the oldest, then turned round. */
  private async everything(): Promise<EventView[]> {
    const all: EventView[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.fetchPage(
        this.query({ limit: String(PAGE_SIZE), ...(after ? { starting_after: after } : {}) }),
      );
      all.push(...page.events);
      if (!page.has_more || page.events.length === 0) return all.reverse();
      after = page.events[page.events.length - 1].id;
    }
  }

  private query(extra: Record<string, string>): Record<string, string> {
    return {
      ...extra,
      order: 'recorded',
      ...(this.since ? { 'created[gte]': this.since.toISOString() } : {}),
      ...(this.type ? { type: this.type } : {}),
    };
  }
}
