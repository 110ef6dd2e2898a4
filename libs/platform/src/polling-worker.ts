import type { Logger } from 'pino';

/**
 * What a tick says about the next: `true`, more work (tick at once); `false`, wait the interval; a number, milliseconds
 * until known work is due (`Infinity`: none), kept between the interval and `idleMaxMs`.
 */
export type TickResult = boolean | number;

/**
 * Runs `tick` in a loop, with capped back-off while it fails. `wake()` skips the wait (or, with `lingerMs`, ends it
 * that long after the first wake, so the work of several wakes is done in one tick), `hurry()` shortens it to the
 * interval, and `stop()` waits for the iteration in flight, so shutdown never cuts a transaction in half.
 */
export class PollingWorker {
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private failures = 0;
  /** When the current wait ends (epoch ms), while one runs. */
  private waitEndsAt = 0;
  /** hurry() came during a tick: the wait after it is at most the interval. */
  private hurried = false;
  /** When the first wake() since the last tick began came (performance.now()), with a linger. */
  private firstWakeAt: number | undefined;

  constructor(
    private readonly name: string,
    private readonly tick: () => Promise<TickResult>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly idleMaxMs = intervalMs,
    /** How long after a wake() the tick it asks for starts: 0, at once; more gathers later wakes' work into it. */
    private readonly lingerMs = 0,
  ) {}

  /** Starts the loop; after a stop(), a new loop begins only once the previous one has ended. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const previous = this.loopDone;
    this.loopDone = previous.then(() => this.loop());
  }

  wake(): void {
    this.woken = true;
    if (this.lingerMs <= 0) return this.wakeUp?.();
    if (this.firstWakeAt !== undefined) return;
    this.firstWakeAt = performance.now();
    // Waiting: the wait ends `lingerMs` from now, unless it ends sooner anyway.
    if (!this.wakeUp || this.waitEndsAt - Date.now() <= this.lingerMs) return;
    clearTimeout(this.timer);
    this.waitEndsAt = Date.now() + this.lingerMs;
    this.timer = setTimeout(this.wakeUp, this.lingerMs);
  }

  /** Ends a wait longer than the interval at the interval (counted from now), so new work due soon is seen in time. */
  hurry(): void {
    const resolve = this.wakeUp;
    if (!resolve) {
      this.hurried = true;
      return;
    }
    if (this.waitEndsAt - Date.now() <= this.intervalMs) return;
    clearTimeout(this.timer);
    this.waitEndsAt = Date.now() + this.intervalMs;
    this.timer = setTimeout(resolve, this.intervalMs);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.woken = true;
    this.wakeUp?.();
    await this.loopDone;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.woken = false;
      this.hurried = false;
      this.firstWakeAt = undefined;
      let result: TickResult = false;
      try {
        result = await this.tick();
        this.failures = 0;
      } catch (err) {
        this.failures += 1;
        if (this.failures === 1 || this.failures % 20 === 0) {
          this.logger.error({ err, worker: this.name, failures: this.failures }, `${this.name} failed; retrying`);
        }
      }
      if (!this.running) break;
      let wait: number;
      let lingered = Infinity;
      if (this.failures > 0) {
        wait = Math.min(this.intervalMs * 2 ** this.failures, 5_000);
        this.firstWakeAt = undefined; // a wake during the back-off ends it (after the linger)
      } else {
        if (result === true || (this.woken && this.lingerMs <= 0)) continue;
        // Woken during the tick: the next one starts once the first wake has lingered.
        if (this.firstWakeAt !== undefined)
          lingered = Math.max(0, this.firstWakeAt + this.lingerMs - performance.now());
        if (lingered === 0) continue;
        wait = this.delayAfter(result);
      }
      const delay = Math.min(this.hurried ? Math.min(wait, this.intervalMs) : wait, lingered);
      await new Promise<void>((resolve) => {
        this.wakeUp = resolve;
        this.waitEndsAt = Date.now() + delay;
        this.timer = setTimeout(resolve, delay);
      });
      clearTimeout(this.timer);
      this.wakeUp = undefined;
    }
  }

  private delayAfter(result: TickResult): number {
    if (typeof result !== 'number' || Number.isNaN(result)) return this.intervalMs;
    return Math.min(Math.max(result, this.intervalMs), Math.max(this.idleMaxMs, this.intervalMs));
  }
}
