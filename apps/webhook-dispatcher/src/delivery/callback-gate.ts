/** Gives back the slot taken by acquire(); call exactly once. */
export type Release = () => void;

interface Slots {
  active: number;
  /** Attempts whose delivery is claimed already (in the fan-out): served before `waiting`. */
  claimed: Array<(release: Release) => void>;
  waiting: Array<(release: Release) => void>;
}

/**
 * The per-callback concurrency limit within one process, checked before a worker sends: in a burst to one callback up
 * to `maxWaiting` attempts wait here in order instead of spinning on refused claims. The claims' database count stays
 * the limit across replicas. Attempts already claimed go first: their claims count in that limit while they wait, so
 * an attempt behind them that claims only now would be refused.
 */
export class CallbackGate {
  private readonly slots = new Map<number, Slots>();
  /** Attempts waiting, over every callback. */
  private queued = 0;

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  /** Whether any attempt waits for a slot (some callback is at its limit in this process). */
  anyWaiting(): boolean {
    return this.queued > 0;
  }

  /**
   * A slot for `callbackId`, now or after the attempts ahead of it, or null when `maxWaiting` already wait (the caller
   * backs off, freeing its worker slot). `queue: true` always waits, for callers holding no shared worker slot;
   * `claimed: true` (the delivery is claimed already) always waits too, ahead of the others.
   */
  acquire(callbackId: number, opts: { queue?: boolean; claimed?: boolean } = {}): Promise<Release> | null {
    let s = this.slots.get(callbackId);
    if (!s) {
      s = { active: 0, claimed: [], waiting: [] };
      this.slots.set(callbackId, s);
    }
    if (s.active < this.limit) {
      s.active += 1;
      return Promise.resolve(this.releaser(callbackId, s));
    }
    if (s.waiting.length >= this.maxWaiting && !opts.queue && !opts.claimed) return null;
    const line = opts.claimed ? s.claimed : s.waiting;
    this.queued += 1;
    return new Promise<Release>((resolve) => line.push(resolve));
  }

  private releaser(callbackId: number, s: Slots): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = s.claimed.shift() ?? s.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) {
        this.queued -= 1;
        return next(this.releaser(callbackId, s));
      }
      s.active -= 1;
      if (s.active === 0) this.slots.delete(callbackId);
    };
  }
}
