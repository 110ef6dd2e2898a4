import type { DeliveryStore, OverdueCursor, OverdueRow } from './delivery-store';

/** Job states in which a queue job will still run, or is running: its delivery is not lost. */
const LIVE_JOB_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);

export interface ReconcilerOptions {
  /** How long a row must have been handed over, and its attempt overdue, before it is looked at. */
  graceSeconds: number;
  /** Rows read per statement (and job states asked per round of queue calls). */
  pageSize: number;
  /** Most pages one pass reads; the next pass goes on after the last row read. */
  pagesPerPass: number;
}

/**
 * Finds pending deliveries whose queue job was lost (a crash, a Redis restart) and hands them back to the enqueuer.
 * Overdue but alive rows (behind a busy callback) can be many, so passes page through them and each resumes where the
 * last stopped: a lost job is found within a few passes, however large the backlog.
 */
export class DeliveryReconciler {
  private cursor: OverdueCursor | null = null;

  constructor(
    private readonly store: Pick<DeliveryStore, 'overdue' | 'release'>,
    /** The state of the row's current job (the job of its attempt and enqueue count); anything not live means lost. */
    private readonly jobState: (row: OverdueRow) => Promise<string>,
    /** Whether this process holds the delivery (waiting for its in-process first attempt). */
    private readonly heldHere: (deliveryId: string) => boolean,
    private readonly options: ReconcilerOptions,
  ) {}

  /** One pass; answers how many deliveries it handed back to the enqueuer. */
  async pass(): Promise<number> {
    let released = 0;
    for (let page = 0; page < this.options.pagesPerPass; page++) {
      const rows = await this.store.overdue(this.options.graceSeconds, this.options.pageSize, this.cursor);
      const candidates = rows.filter((r) => !this.heldHere(r.id));
      // One round of queue calls per page (they share the connection's pipeline), not one round trip per row.
      const states = await Promise.all(candidates.map((r) => this.jobState(r)));
      for (const [i, row] of candidates.entries()) {
        if (LIVE_JOB_STATES.has(states[i])) continue;
        if (await this.store.release(row.id, row.enqueue_count)) released += 1;
      }
      if (rows.length < this.options.pageSize) {
        this.cursor = null;
        break;
      }
      const last = rows[rows.length - 1];
      this.cursor = { id: last.id, next_attempt_at: last.next_attempt_at };
    }
    return released;
  }
}
