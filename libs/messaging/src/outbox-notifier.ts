import type { PollingWorker } from '@payments/platform';

/** Nest injection token of the service's idempotent Kafka producer. */
export const KAFKA_PRODUCER = Symbol('KAFKA_PRODUCER');

/** Lets the outbox relay be woken by use cases right after they commit (lower event latency). */
export class OutboxNotifier {
  constructor(private readonly worker?: PollingWorker) {}
  notify(): void {
    this.worker?.wake();
  }
}
