import { isRolledBackByConcurrency, isRowError } from './data-error';
import { DeadlineExceededError } from './dependency-error';

interface Waiting<I, O> {
  item: I;
  resolve: (out: O) => void;
  reject: (err: unknown) => void;
}

/** A group statement's answer for an item it did not settle (e.g. skipped by ON CONFLICT DO NOTHING): it runs alone. */
export const RUN_ALONE: unique symbol = Symbol('run alone');

export interface GroupCommitOptions<I, O> {
  /** Most items in one statement. */
  max?: number;
  /**
   * Most statements in flight at once. With 1 a statement carries everything that queued while the
   * previous one ran; with a few, a lone caller never waits behind a running statement, and groups
   * still form once that many are running.
   */
  inFlight?: number;
  /**
   * Runs one item in its own statement, to get exactly its answer without grouping: for items the group statement
   * answered RUN_ALONE, and for every item of a group that failed with an error `isolate` accepts.
   */
  alone?: (item: I) => Promise<O>;
  /**
   * Whether a failed group is retried item by item: by default row errors (isRowError) and rollbacks forced by other
   * transactions (class 40). Any other error goes to every item: retrying each alone could cost the group's size times
   * a timeout, and after a broken connection the outcome is unknown, so a retry could apply it twice.
   */
  isolate?: (err: unknown) => boolean;
  /**
   * When an item's caller stops waiting (epoch ms), if it says: an item whose deadline has passed
   * while it queued is not put into a group (it fails with DeadlineExceededError, nothing written).
   */
  deadline?: (item: I) => number | undefined;
  /**
   * The first item waits for the rest of the event loop's turn (setImmediate) before its statement goes out, so items
   * submitted by callbacks of the same turn (several deliveries a consumer transaction handed over, several responses
   * read in one poll) share it. For writes whose callers are not latency-bound.
   */
  gather?: boolean;
}

/**
 * Group commit without a timer: the first write goes out at once (with `gather`, at the end of its event-loop turn);
 * writes arriving while `inFlight` statements run go together in the next (at most `max`). A lone caller pays no extra
 * latency; each caller gets its own result or error.
 */
export class GroupCommit<I, O> {
  private queue: Waiting<I, O>[] = [];
  private running = 0;
  /** A gathering turn's pump is scheduled. */
  private gathering = false;
  private readonly max: number;
  private readonly inFlight: number;
  private readonly isolate: (err: unknown) => boolean;

  constructor(
    /** Writes the items; answers one result (or RUN_ALONE) per item, in the same order. */
    private readonly write: (items: I[]) => Promise<(O | typeof RUN_ALONE)[]>,
    private readonly options: GroupCommitOptions<I, O> = {},
  ) {
    this.max = options.max ?? 200;
    this.inFlight = options.inFlight ?? 1;
    if (!(this.max >= 1) || !(this.inFlight >= 1)) throw new Error('GroupCommit needs max and inFlight of at least 1');
    this.isolate = options.isolate ?? ((err) => isRowError(err) || isRolledBackByConcurrency(err));
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.options.gather) return this.pump();
      if (this.gathering) return;
      this.gathering = true;
      setImmediate(() => {
        this.gathering = false;
        this.pump();
      });
    });
  }

  private pump(): void {
    while (this.running < this.inFlight && this.queue.length > 0) {
      const group = this.takeGroup();
      if (group.length === 0) continue;
      this.running += 1;
      void this.flush(group).then((left) => {
        // The slot is the group statement's only: items left to run alone do not hold it.
        this.running -= 1;
        for (const w of left) void this.runAlone(w);
        this.pump();
      });
    }
  }

  /** The next group: up to `max` queued items whose callers still wait; the others are refused. */
  private takeGroup(): Waiting<I, O>[] {
    const group = this.queue.splice(0, this.max);
    const deadline = this.options.deadline;
    if (!deadline) return group;
    const now = Date.now();
    return group.filter((w) => {
      const at = deadline(w.item);
      if (at === undefined || at > now) return true;
      w.reject(new DeadlineExceededError('the caller gave up while this write was queued; it was not written'));
      return false;
    });
  }

  /** Whether a failed group's items run again alone; a throwing `isolate` counts as no (flush must never throw). */
  private isolates(err: unknown): boolean {
    try {
      return this.isolate(err);
    } catch {
      return false;
    }
  }

  /** Writes a group and settles what its statement answered; returns the items left to run alone. Never throws. */
  private async flush(group: Waiting<I, O>[]): Promise<Waiting<I, O>[]> {
    let out: (O | typeof RUN_ALONE)[];
    try {
      out = await this.write(group.map((w) => w.item));
    } catch (err) {
      if (group.length > 1 && this.options.alone && this.isolates(err)) return group;
      for (const w of group) w.reject(err);
      return [];
    }
    // The statement committed: whatever is wrong from here on, no item may run again.
    if (!Array.isArray(out) || out.length !== group.length) {
      const err = new Error(
        `group write answered ${Array.isArray(out) ? out.length : 'no array of'} results for ${group.length} items`,
      );
      for (const w of group) w.reject(err);
      return [];
    }
    const left: Waiting<I, O>[] = [];
    group.forEach((w, i) => {
      const result = out[i];
      if (result === RUN_ALONE) left.push(w);
      else w.resolve(result);
    });
    return left;
  }

  /** Never throws: the item's caller gets the answer or the error. */
  private async runAlone(w: Waiting<I, O>): Promise<void> {
    try {
      if (!this.options.alone)
        throw new Error('the group write left an item unsettled and there is no `alone` to run it');
      w.resolve(await this.options.alone(w.item));
    } catch (err) {
      w.reject(err);
    }
  }
}
