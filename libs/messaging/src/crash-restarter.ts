import type { Consumer } from 'kafkajs';
import type { Logger } from 'pino';

/**
 * kafkajs restarts a crashed consumer only after a retriable error; otherwise it disconnects for good and events
 * silently stop being applied while the service looks healthy. This restarts it (from the last commit; the inbox skips
 * what was applied since), backing off from 1 s to 30 s.
 */
export class CrashRestarter {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly start: () => Promise<void>,
    private readonly logger: Logger,
    private readonly group: string,
  ) {}

  /** Watches `consumer`; a crash of it restarts only while it is still the current one. */
  watch(consumer: Consumer, isCurrent: () => boolean): void {
    consumer.on(consumer.events.CRASH, (e: { payload: { error: Error; restart: boolean } }) => {
      if (e.payload.restart || this.stopped || !isCurrent()) return;
      this.logger.error(
        { err: e.payload.error, group: this.group },
        'consumer crashed and was not restarted by the Kafka client; starting it again',
      );
      this.schedule(1_000);
    });
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.stopped) return;
      this.start().catch((err: unknown) => {
        this.logger.error({ err, group: this.group }, 'starting the consumer again failed; trying again');
        this.schedule(Math.min(delayMs * 2, 30_000));
      });
    }, delayMs);
  }
}

/** Whether kafkajs says trying again may succeed (a topic still propagating, a leader moving, a broker starting). */
function retriable(err: unknown): boolean {
  const e = err as { retriable?: unknown; name?: unknown };
  return e?.retriable === true || e?.name === 'KafkaJSNumberOfRetriesExceeded' || e?.name === 'KafkaJSConnectionError';
}

/**
 * Starts a consumer, trying again for up to `withinMs` while the failure is one Kafka calls
 * retriable — on a fresh cluster a topic just created can be unknown to the broker a subscribe
 * asks for longer than kafkajs's own retries last. Anything else fails at once.
 */
export async function startRetrying(
  start: () => Promise<void>,
  logger: Logger,
  group: string,
  withinMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (!retriable(err) || Date.now() > deadline) throw err;
      const delay = Math.min(1_000 * attempt, 5_000);
      logger.warn(
        { err, group, attempt, delay },
        'starting the consumer failed with a retriable Kafka error; trying again',
      );
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
