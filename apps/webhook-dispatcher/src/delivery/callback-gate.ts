/** Gives back the slot taken by acquire(); call exactly once. */
export type Release = () => void;

interface Slots {
  active: number;
  waiting: Array<(release: Release) => void>;
}

/**
 * The per-callback concurrency limit inside one dispatcher process, checked before a worker claims
 * a delivery. Without it, a worker that picks a job of a callback already at its limit is refused
 * by the claim and must back off, so during a burst to one callback most worker slots spin on
 * refusals while the callback sits below its limit between back-offs. With it, up to `limit`
 * attempts run and up to `maxWaiting` more wait here in order and start the moment a slot frees.
 * The database's count of locked deliveries stays the limit across replicas (the claim still
 * enforces it); this gate only keeps one process from wasting its own slots.
 */
export class CallbackGate {
  private readonly slots = new Map<number, Slots>();

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  /**
   * A slot for `callbackId`: at once when one is free, after the attempts ahead of it when the
   * callback is full, or null when `maxWaiting` are already waiting (the caller backs off instead,
   * leaving its worker slot to other callbacks). `queue: true` always waits: for callers that hold
   * no shared worker slot while they wait (the in-process first attempts).
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
