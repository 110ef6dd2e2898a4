import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '@payments/platform';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { CallbackGate } from './callback-gate';
import { DeliverAttemptUseCase } from './usecases/deliver-attempt.usecase';
import { DeliveryStore, type FannedOut } from './delivery-store';

/** Deliveries held in memory for a first attempt at most; beyond that new ones go through the queue. */
const MAX_HELD = 5_000;

/**
 * First attempts straight from the consumer: deliveries its transaction handed over (DeliveryStore.fanOut) are tried
 * here after commit, without Redis. BullMQ stays the restart-safe path for everything else; sending still needs the
 * claim, so a job racing an in-process attempt cannot send twice.
 */
@Injectable()
export class FirstAttempts implements BeforeApplicationShutdown {
  /** Delivery ids handed to this process and not finished (the reconciler leaves them alone). */
  private readonly held = new Set<string>();
  /** Those of `held` whose attempt has begun. */
  private readonly attempting = new Set<string>();
  /** Those of `held` handed back to the queue at shutdown, before their attempt began. */
  private readonly handedBack = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly slots: Array<() => void> = [];
  private active = 0;
  private closing = false;
  /** Set by the queue: wakes its enqueuer, for deliveries this process leaves to it. */
  wakeQueue: () => void = () => undefined;

  constructor(
    private readonly store: DeliveryStore,
    private readonly attempt: DeliverAttemptUseCase,
    private readonly gate: CallbackGate,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /** Whether a consumer transaction should write its deliveries handed over to this process. */
  accepting(): boolean {
    return !this.closing && this.held.size < MAX_HELD;
  }

  holds(deliveryId: string): boolean {
    return this.held.has(deliveryId);
  }

  /** Starts the first attempt of each pending delivery; call only after their rows committed. */
  dispatch(rows: FannedOut[]): void {
    for (const row of rows) {
      if (row.status !== 'pending' || row.enqueue_count !== 1 || this.held.has(row.id)) continue;
      this.held.add(row.id);
      const run = this.run(row).finally(() => {
        this.held.delete(row.id);
        this.attempting.delete(row.id);
        this.handedBack.delete(row.id);
        this.running.delete(run);
      });
      this.running.add(run);
    }
  }

  /**
   * Hands the deliveries not attempted yet back to the queue in one statement (any replica's
   * enqueuer takes them at once) and lets the attempts in flight finish and record their outcome.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    const waiting = [...this.held].filter((id) => !this.attempting.has(id));
    await this.store.releaseMany(waiting).then(
      () => waiting.forEach((id) => this.handedBack.add(id)),
      (err) => this.logger.warn({ err }, 'could not hand deliveries back; the reconciler will'),
    );
    for (const wake of this.slots.splice(0)) {
      this.active += 1;
      wake();
    }
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private async run(row: FannedOut): Promise<void> {
    // Per callback first (its limit), then one of this process's slots: a burst to one callback
    // waits at its own gate and never holds slots other callbacks need.
    const release = await this.gate.acquire(row.callback_id, { queue: true })!;
    try {
      await this.slot();
      try {
        // Shutting down: handed back already if it was waiting then; if committed since, hand it
        // back now rather than leave it to another replica's reconciler.
        if (this.closing) return this.handedBack.has(row.id) ? undefined : await this.handBack(row, 'shutdown');
        this.attempting.add(row.id);
        const outcome = await this.attempt.execute({ deliveryId: row.id, attempt: 0, callbackId: row.callback_id });
        // Busy: another replica's attempts fill the callback; the queue retries it shortly.
        if (outcome === 'busy') await this.handBack(row, 'callback busy');
        else if (outcome === 'retry' || outcome === 'failed') this.wakeQueue();
      } finally {
        this.freeSlot();
      }
    } catch (err) {
      this.logger.warn(
        { err, delivery_id: row.id },
        'in-process first attempt failed; the queue takes the delivery over',
      );
      await this.handBack(row, 'error').catch(() => undefined);
    } finally {
      release();
    }
  }

  private async handBack(row: FannedOut, why: string): Promise<void> {
    await this.store.releaseMany([row.id]);
    this.logger.debug({ delivery_id: row.id, why }, 'first attempt handed to the queue');
    this.wakeQueue();
  }

  private slot(): Promise<void> {
    if (this.active < this.config.WEBHOOK_WORKER_CONCURRENCY || this.closing) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.slots.push(resolve));
  }

  /** The slot passes straight to the next waiter, so `active` stays the same. */
  private freeSlot(): void {
    const next = this.slots.shift();
    if (next) next();
    else this.active -= 1;
  }
}
