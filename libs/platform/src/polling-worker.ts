import type { Logger } from 'pino';

/**
 * Runs `tick` in a loop: again at once when it reports more work, after `intervalMs` otherwise,
 * with capped exponential back-off while it fails. `wake()` skips the wait (also when it arrives
 * during a tick); `stop()` waits for the iteration in flight, so shutdown never cuts a transaction
 * in half.
 */
export class PollingWorker {
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private failures = 0;

  constructor(
    private readonly name: string,
    private readonly tick: () => Promise<boolean>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
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
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loopDone;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let more = false;
      try {
        more = await this.tick();
        this.failures = 0;
      } catch (err) {
        this.failures += 1;
        if (this.failures === 1 || this.failures % 20 === 0) {
          this.logger.error({ err, worker: this.name, failures: this.failures }, `${this.name} failed; retrying`);
        }
      }
      if (!this.running) break;
      if ((more || this.woken) && this.failures === 0) continue;
      const delay = this.failures === 0 ? this.intervalMs : Math.min(this.intervalMs * 2 ** this.failures, 5_000);
      await new Promise<void>((resolve) => {
        this.wakeUp = resolve;
        this.timer = setTimeout(resolve, delay);
      });
      clearTimeout(this.timer);
      this.wakeUp = undefined;
    }
  }
}
