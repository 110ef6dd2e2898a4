import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '@payments/platform';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { CallbackGate } from './callback-gate';
import { DeliverAttemptUseCase, claimSeconds } from './usecases/deliver-attempt.usecase';
import { DeliveryStore, type ClaimedAttempt, type FannedOut, type FirstAttemptClaims } from './delivery-store';

/** Deliveries held in memory for a first attempt at most; beyond that new ones go through the queue. */
const MAX_HELD = 5_000;
/**
 * How long after its fan-out was sent a delivery claimed there may start its attempt on that claim. The claim holds
 * this much longer than one made by the attempt itself, so an attempt starting within this time keeps at least the same
 * time to finish; one that waited longer (behind its callback's limit or the worker slots) renews the claim first.
 */
const CLAIM_FRESH_SECONDS = 1;

/**
 * First attempts straight from the consumer: deliveries its transaction handed over (DeliveryStore.recordAndFanOut)
 * are tried here after commit, without Redis. BullMQ stays the restart-safe path for everything else; sending still
 * needs a claim (the fan-out's, or the attempt's own), so a job racing an in-process attempt cannot send twice.
 */
@Injectable()
export class FirstAttempts implements BeforeApplicationShutdown {
  /**
   * Deliveries handed to this process and not finished (the reconciler leaves them alone), by id: the token of their
   * claim made in the fan-out, or null.
   */
  private readonly held = new Map<string, string | null>();
  /** Those of `held` whose attempt has begun. */
  private readonly attempting = new Set<string>();
  /** Those of `held` handed back to the queue at shutdown, before their attempt began. */
  private readonly handedBack = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly slots: Array<() => void> = [];
  /** Waiters for a slot whose delivery is claimed already: served first, as at the callback gate. */
  private readonly claimedSlots: Array<() => void> = [];
  private active = 0;
  private closing = false;
  /**
   * The terms of the one fan-out allowed to claim now (accepting()), and when they were given: until its claims are
   * dispatched (or it claimed none) no other fan-out claims, so fan-outs running side by side (a fetch's partitions,
   * a transaction's topics) cannot claim more than can start. Lapses after CLAIM_FRESH_SECONDS (a rolled-back one).
   */
  private grant: { terms: FirstAttemptClaims; at: number } | undefined;
  /** Set by the queue: wakes its enqueuer, for deliveries this process leaves to it. */
  wakeQueue: () => void = () => undefined;

  constructor(
    private readonly store: DeliveryStore,
    private readonly attempt: DeliverAttemptUseCase,
    private readonly gate: CallbackGate,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Whether a consumer transaction should write its deliveries handed over to this process, and if so how it claims
   * them for their first attempt; false when it should not. It claims only what can start at once: none while any
   * attempt waits here (a callback at its limit, or every worker slot taken), at most the free worker slots otherwise.
   * A claim made for an attempt that waits would be held while it waits, counted against its callback's limit.
   */
  accepting(): FirstAttemptClaims | false {
    if (this.closing || this.held.size >= MAX_HELD) return false;
    const waiting = this.gate.anyWaiting() || this.slots.length + this.claimedSlots.length > 0;
    const granted = this.grant !== undefined && performance.now() - this.grant.at < CLAIM_FRESH_SECONDS * 1000;
    const terms = {
      most: waiting || granted ? 0 : Math.max(0, this.config.WEBHOOK_WORKER_CONCURRENCY - this.active),
      perCallbackLimit: this.config.WEBHOOK_CALLBACK_CONCURRENCY,
      lockSeconds: claimSeconds(this.config) + CLAIM_FRESH_SECONDS,
    };
    if (terms.most > 0) this.grant = { terms, at: performance.now() };
    return terms;
  }

  /**
   * The fan-out given `terms` has run its statement (`rows` null: it failed): if it claimed nothing, another may claim
   * at once; what it claimed counts until dispatch().
   */
  fannedOut(terms: FirstAttemptClaims, rows: FannedOut[] | null): void {
    if (this.grant?.terms === terms && !rows?.some((r) => r.claimed !== null)) this.grant = undefined;
  }

  holds(deliveryId: string): boolean {
    return this.held.has(deliveryId);
  }

  /**
   * Starts the first attempt of each pending delivery; call only after their rows committed. `sentAt`
   * (performance.now()) was read before the fan-out statement was sent: its claims hold from a later moment.
   */
  dispatch(rows: FannedOut[], sentAt: number, terms?: FirstAttemptClaims): void {
    if (terms !== undefined && this.grant?.terms === terms) this.grant = undefined;
    for (const row of rows) {
      if (row.status !== 'pending' || row.enqueue_count !== 1 || this.held.has(row.id)) continue;
      this.held.set(row.id, row.claimed?.delivery.lock_token ?? null);
      const run = this.run(row, sentAt).finally(() => {
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
    const waiting = [...this.held]
      .filter(([id]) => !this.attempting.has(id))
      .map(([id, lockToken]) => ({ id, lockToken }));
    await this.store.releaseMany(waiting).then(
      () => waiting.forEach(({ id }) => this.handedBack.add(id)),
      (err) => this.logger.warn({ err }, 'could not hand deliveries back; the reconciler will'),
    );
    for (const wake of [...this.claimedSlots.splice(0), ...this.slots.splice(0)]) {
      this.active += 1;
      wake();
    }
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private async run(row: FannedOut, sentAt: number): Promise<void> {
    // Per callback first (its limit), then one of this process's slots: a burst to one callback
    // waits at its own gate and never holds slots other callbacks need.
    const claimed = row.claimed !== null;
    let unsent = false;
    const release = await this.gate.acquire(row.callback_id, { queue: true, claimed })!;
    try {
      await this.slot(claimed);
      try {
        // Shutting down: handed back already if it was waiting then; if committed since, hand it
        // back now rather than leave it to another replica's reconciler.
        if (this.closing) return this.handedBack.has(row.id) ? undefined : await this.handBack(row, 'shutdown', true);
        this.attempting.add(row.id);
        // A renewal that failed leaves the fan-out's claim as it was: let go of it below, as of an attempt never made.
        unsent = true;
        const claim = await this.freshClaim(row, sentAt);
        // The fan-out's claim moved on while the attempt waited (its delivery cancelled, say): nothing to send.
        if (claim === null) return;
        unsent = false;
        const outcome = await this.attempt.execute(
          { deliveryId: row.id, attempt: 0, callbackId: row.callback_id },
          claim,
        );
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
      await this.handBack(row, 'error', unsent).catch(() => undefined);
    } finally {
      release();
    }
  }

  /**
   * The fan-out's claim of `row` while it leaves the attempt its full time; one older is renewed first (a new lock and
   * token, with the callback as it is now), so the claim lapses no sooner after the send begins than one the attempt
   * makes itself; null when the claim moved on meanwhile. Undefined when the fan-out did not claim `row`.
   */
  private async freshClaim(row: FannedOut, sentAt: number): Promise<ClaimedAttempt | null | undefined> {
    if (!row.claimed) return undefined;
    if (performance.now() - sentAt <= CLAIM_FRESH_SECONDS * 1000) return row.claimed;
    return this.store.renewClaim(row.claimed.delivery, claimSeconds(this.config));
  }

  /** Gives `row` to the queue; its claim from the fan-out too with `unattempted` (no attempt was made on it). */
  private async handBack(row: FannedOut, why: string, unattempted = false): Promise<void> {
    const lockToken = unattempted ? (row.claimed?.delivery.lock_token ?? null) : null;
    await this.store.releaseMany([{ id: row.id, lockToken }]);
    this.logger.debug({ delivery_id: row.id, why }, 'first attempt handed to the queue');
    this.wakeQueue();
  }

  private slot(claimed: boolean): Promise<void> {
    if (this.active < this.config.WEBHOOK_WORKER_CONCURRENCY || this.closing) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => (claimed ? this.claimedSlots : this.slots).push(resolve));
  }

  /** The slot passes straight to the next waiter, so `active` stays the same. */
  private freeSlot(): void {
    const next = this.claimedSlots.shift() ?? this.slots.shift();
    if (next) next();
    else this.active -= 1;
  }
}
