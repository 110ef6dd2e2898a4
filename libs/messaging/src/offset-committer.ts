import type { EachBatchPayload } from 'kafkajs';
import type { Logger } from 'pino';

/** The part of a kafkajs batch payload that commits the group's resolved offsets. */
export type OffsetSource = Pick<EachBatchPayload, 'commitOffsetsIfNecessary' | 'uncommittedOffsets'>;

/**
 * Commits a consumer's resolved offsets at most once per interval, and at once on stop: kafkajs's `autoCommit` commits
 * after every batch, a round trip before each fetch. Committing later loses nothing: the inbox makes repeats harmless.
 */
export class OffsetCommitter {
  private timer: NodeJS.Timeout | undefined;
  private source: OffsetSource | undefined;
  private closed = false;

  constructor(
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  /** After a batch: its resolved offsets are committed within the interval, also if no batch follows. */
  resolved(source: OffsetSource): void {
    if (this.closed) return;
    this.source = source;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Commits what is resolved and not committed yet; a failure is logged (the next commit covers it). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const source = this.source;
    if (!source) return;
    // Runs from a timer too: nothing may escape as an unhandled rejection.
    try {
      const offsets = source.uncommittedOffsets();
      if (offsets.topics.length > 0) await source.commitOffsetsIfNecessary(offsets);
    } catch (err) {
      this.logger.warn(
        { err },
        'offset commit failed; events since the last commit will be redelivered and skipped by the inbox',
      );
    }
  }

  /** After the consumer has left its group: nothing is committed any more. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.source = undefined;
  }
}
