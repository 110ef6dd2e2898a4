import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from '@payments/database';
import { ROOT_LOGGER } from '@payments/platform';
import { webhookBody } from '@payments/contracts';
import { eventView } from '../../events/events-store';
import { WebhookDispatcherConfig } from '../../config/webhook.config';
import { nextRetry, parseRetryAfter, parseSchedule } from '../backoff';
import { CallbackStore, type CallbackRow } from '../../callbacks/callback-store';
import { DeliveryStore, type ClaimedAttempt, type DeliveryRow } from '../delivery-store';
import { disableReason, parseDuration, type DisableRule } from '../disable-rule';
import { HttpSender, type SendResult } from '../http-sender';
import { signingSecrets, webhookHeaders } from '../signature';

export interface DeliveryJob {
  deliveryId: string;
  attempt: number;
  /** Lets the worker wait for a slot of its callback before claiming (absent in older jobs). */
  callbackId?: number;
}

export type AttemptOutcome = 'delivered' | 'failed' | 'retry' | 'busy' | 'skipped';

/**
 * How long a claim holds a delivery: the whole timeout of its request, and 5 s more for recording the outcome, so no
 * other worker can claim it while its attempt may still be sending.
 */
export function claimSeconds(config: Pick<WebhookDispatcherConfig, 'WEBHOOK_TIMEOUT_MS'>): number {
  return Math.ceil(config.WEBHOOK_TIMEOUT_MS / 1000) + 5;
}

/**
 * One delivery attempt: claim it, sign and POST the event, record the attempt, and decide what
 * comes next (done, retry at a scheduled time, give up, disable the callback).
 */
@Injectable()
export class DeliverAttemptUseCase {
  private readonly schedule: number[];
  private readonly disableRule: DisableRule;

  constructor(
    private readonly ds: DataSource,
    private readonly store: DeliveryStore,
    private readonly callbacks: CallbackStore,
    private readonly sender: HttpSender,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.schedule = parseSchedule(config.WEBHOOK_RETRY_SCHEDULE);
    this.disableRule = {
      after: config.WEBHOOK_DISABLE_AFTER,
      minFailingMs: parseDuration(config.WEBHOOK_DISABLE_MIN_FAILING),
    };
  }

  /** `claimed`: the delivery was claimed for this attempt already (the fan-out's claim, FirstAttempts). */
  async execute(job: DeliveryJob, claimed?: ClaimedAttempt): Promise<AttemptOutcome> {
    const claim =
      claimed ??
      (await this.store.claimAttempt(
        job.deliveryId,
        job.attempt,
        claimSeconds(this.config),
        this.config.WEBHOOK_CALLBACK_CONCURRENCY,
      ));
    if (claim === 'busy') return 'busy';
    if (!claim) return 'skipped';
    const { delivery, callback, event } = claim;
    if (!callback || callback.deleted_at || !callback.is_active) {
      // Disabled: nothing is sent; a first attempt never made is `skipped`, which `recover` picks up.
      const gone = callback?.deleted_at || !callback;
      await this.store.finishUnsent(
        delivery,
        gone ? 'cancelled' : delivery.attempts === 0 ? 'skipped' : 'failed',
        gone ? 'callback deleted' : 'callback disabled',
      );
      return 'skipped';
    }
    const body = webhookBody(eventView(event));

    let result: SendResult;
    if (Buffer.byteLength(body) > this.config.WEBHOOK_MAX_PAYLOAD_BYTES) {
      result = {
        statusCode: null,
        error:
          `payload of ${Buffer.byteLength(body)} bytes ` +
          `exceeds the ${this.config.WEBHOOK_MAX_PAYLOAD_BYTES}-byte limit`,
        durationMs: 0,
        retryAfter: undefined,
      };
    } else {
      const headers = webhookHeaders(signingSecrets(callback), event.id, Math.floor(Date.now() / 1000), body);
      result = await this.sender.send(callback.url, headers, body);
    }
    return this.record(delivery, callback, result);
  }

  /**
   * The row moved on while the attempt ran (cancelled by a DELETE, or claimed again by another
   * worker after this one's lock expired): record nothing more, just let go of it if it is still
   * this claim's.
   */
  private async released(m: EntityManager, delivery: DeliveryRow): Promise<AttemptOutcome> {
    await this.store.unlock(m, delivery);
    return 'skipped';
  }

  private async record(delivery: DeliveryRow, callback: CallbackRow, result: SendResult): Promise<AttemptOutcome> {
    if (result.error === null) {
      if (!(await this.store.recordSuccess(delivery, result.statusCode, result.durationMs))) {
        return this.released(this.ds.manager, delivery);
      }
      // A busy callback succeeds many times a second: write its row only when something changes.
      const lastTriggered = callback.last_triggered?.getTime() ?? 0;
      if (callback.failure_count !== 0 || Date.now() - lastTriggered > 1_000)
        await this.callbacks.recordSuccess(callback.id);
      return 'delivered';
    }
    return this.recordFailure(delivery, callback, result);
  }

  private recordFailure(delivery: DeliveryRow, callback: CallbackRow, result: SendResult): Promise<AttemptOutcome> {
    const attemptNo = delivery.attempts + 1;
    return this.ds.transaction(async (m) => {
      // Lock order everywhere (here, callback update and delete): the callback row first, then its
      // deliveries — the other order against a concurrent DELETE deadlocks.
      await this.callbacks.lock(m, callback.id);
      const gone = result.statusCode === 410;
      const retryable =
        result.statusCode === 429 || result.statusCode === 503 ? parseRetryAfter(result.retryAfter) : null;
      const decision = gone
        ? { retry: false, delayMs: 0 }
        : nextRetry(attemptNo - delivery.cycle_start, this.schedule, retryable);
      const moved = await this.store.recordFailure(m, {
        deliveryId: delivery.id,
        lockToken: delivery.lock_token,
        previousAttempts: delivery.attempts,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error?.slice(0, 500) ?? null,
        retryInSeconds: decision.retry ? decision.delayMs / 1000 : null,
      });
      if (!moved) return this.released(m, delivery);
      const cb = await this.callbacks.recordFailure(m, callback.id);
      const disable = disableReason(this.disableRule, { gone, count: cb.failure_count, failingForMs: cb.failing_ms });
      if (disable && callback.is_active) {
        await this.callbacks.disable(m, callback.id, disable);
        // Nothing more goes to a disabled endpoint; `recover` sends these once it is enabled again.
        await this.store.parkPendingOf(m, callback.id, delivery.id);
        this.logger.warn({ callback_id: callback.id, reason: disable }, 'callback disabled');
      }
      return decision.retry && !disable ? ('retry' as const) : ('failed' as const);
    });
  }
}
