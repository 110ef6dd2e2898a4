import type { EventView } from '@payments/contracts';

export interface EventsPage {
  events: EventView[];
  has_more: boolean;
}

/** One GET /v1/events with these query parameters. */
export type FetchEventsPage = (query: Record<string, string>) => Promise<EventsPage>;

const PAGE_SIZE = 100;

/**
 * Follows a business's new events through the events API in the order they were recorded
 * (`order=recorded`: newest first, and listing only events no write still running can come
 * before). Each poll pages towards newer events with `ending_before` the newest event it has
 * returned, so an event is returned once, however long after its own time it was recorded (a
 * dispatcher catching up on a backlog records events minutes after they happened).
 */
export class EventFollower {
  /** The newest event returned (or skipped at start); undefined until there is one. */
  private cursor: string | undefined;
  private since: Date | undefined;

  constructor(
    private readonly fetchPage: FetchEventsPage,
    private readonly type?: string,
  ) {}

  /** Default start: everything recorded now counts as seen, only later events are returned. */
  async skipExisting(): Promise<void> {
    this.cursor = (await this.fetchPage(this.query({ limit: '1' }))).events[0]?.id;
  }

  /** Start with the events created at or after an instant instead (recorded before now or later). */
  startAt(since: Date): void {
    this.since = since;
  }

  /** The events recorded since the last poll, oldest first. */
  async poll(): Promise<EventView[]> {
    const fresh = this.cursor === undefined ? await this.everything() : await this.newerThan(this.cursor);
    if (fresh.length > 0) this.cursor = fresh[fresh.length - 1].id;
    return fresh;
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
      const page = await this.fetchPage(this.query({ limit: String(PAGE_SIZE), ...(after ? { starting_after: after } : {}) }));
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
