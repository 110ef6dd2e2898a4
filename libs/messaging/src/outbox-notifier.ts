import type { PollingWorker } from '@payments/platform';

/** Nest injection token of the service's idempotent Kafka producer. */
export const KAFKA_PRODUCER = Symbol('KAFKA_PRODUCER');

/** Lets the outbox relay be woken by use cases right after they commit (lower event latency). */
export class OutboxNotifier {
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly worker?: PollingWorker) {}

  notify(): void {
    this.worker?.wake();
    for (const listener of this.listeners) listener();
  }

  /** Also calls `listener` on each notify: for a worker that looks sooner after this process wrote something. */
  onNotify(listener: () => void): void {
    this.listeners.push(listener);
  }
}
