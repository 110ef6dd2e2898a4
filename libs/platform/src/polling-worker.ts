import type { Logger } from 'pino';

/**
 * Runs `tick` in a loop: again at once when it reports more work, after `intervalMs` otherwise,
 * with capped exponential back-off while it fails. `wake()` skips the wait; `stop()` waits for
 * the iteration in flight, so shutdown never cuts a transaction in half.
 */
export class PollingWorker {
  private running = false;
  private current: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private wakeUp: (() => void) | undefined;
  private failures = 0;

  constructor(
    private readonly name: string,
    private readonly tick: () => Promise<boolean>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.current = this.loop();
  }

  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.current;
  }

  private async loop(): Promise<void> {
    while (this.running) {
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
      if (more) continue;
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
