interface Waiting<I, O> {
  item: I;
  resolve: (out: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: many callers' writes in one statement without a timer. The first write goes out
 * at once; writes that arrive while a statement is in flight wait for it and then go out together
 * in the next one (at most `max` per statement). So one attempt alone pays no extra latency, and
 * under load a statement carries everything that queued while the previous one ran. Each caller
 * gets its own result, or the statement's error.
 */
export class GroupCommit<I, O> {
  private queue: Waiting<I, O>[] = [];
  private busy = false;

  constructor(
    /** Writes the items; answers one result per item, in the same order. */
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly max = 200,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.busy) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.busy = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.max);
        try {
          const out = await this.write(group.map((w) => w.item));
          group.forEach((w, i) => w.resolve(out[i]));
        } catch (err) {
          for (const w of group) w.reject(err);
        }
      }
    } finally {
      this.busy = false;
    }
  }
}
