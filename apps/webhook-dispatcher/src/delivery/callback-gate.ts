/** Gives back the slot taken by acquire(); call exactly once. */
export type Release = () => void;

interface Slots {
  active: number;
  waiting: Array<(release: Release) => void>;
}

/**
 * The per-callback concurrency limit within one process, checked before a worker claims: in a burst to one callback up
 * to `maxWaiting` attempts wait here in order instead of spinning on refused claims. The claim's database count stays
 * the limit across replicas.
 */
export class CallbackGate {
  private readonly slots = new Map<number, Slots>();

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  /**
   * A slot for `callbackId`, now or after the attempts ahead of it, or null when `maxWaiting` already wait (the caller
   * backs off, freeing its worker slot). `queue: true` always waits, for callers holding no shared worker slot.
   */
  acquire(callbackId: number, opts: { queue?: boolean } = {}): Promise<Release> | null {
    let s = this.slots.get(callbackId);
    if (!s) {
      s = { active: 0, waiting: [] };
      this.slots.set(callbackId, s);
    }
    if (s.active < this.limit) {
      s.active += 1;
      return Promise.resolve(this.releaser(callbackId, s));
    }
    if (s.waiting.length >= this.maxWaiting && !opts.queue) return null;
    const slots = s;
    return new Promise<Release>((resolve) => slots.waiting.push(resolve));
  }

  private releaser(callbackId: number, s: Slots): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = s.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) return next(this.releaser(callbackId, s));
      s.active -= 1;
      if (s.active === 0) this.slots.delete(callbackId);
    };
  }
}
