import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import {
  ErrorCodes,
  type CallbackIdBody,
  type CallbackSecretView,
  type CallbackView,
  type CreateCallbackBody,
  type DeliveryView,
  type ListCallbacksBody,
  type ListCallbacksResult,
  type ListDeliveriesBody,
  type ListDeliveriesResult,
  type RecoverDeliveriesBody,
  type RecoverDeliveriesResult,
  type ResendDeliveryBody,
  type RpcContext,
  type RpcRequest,
  type UpdateCallbackBody,
} from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { DeliveryAdminStore } from '../delivery/delivery-admin-store';
import { ForbiddenTargetError, HttpSender } from '../delivery/http-sender';
import { newWebhookSecret } from '../delivery/signature';
import { callbackUrlProblem } from '../delivery/ssrf';
import { EVENT_CATALOGUE } from '../events/catalogue';
import { CallbackStore, type CallbackRow } from './callback-store';

function toView(c: CallbackRow): CallbackView {
  return {
    id: c.id,
    url: c.url,
    description: c.description,
    events: c.events,
    is_active: c.is_active,
    failure_count: c.failure_count,
    last_triggered: c.last_triggered?.toISOString() ?? null,
    date_created: c.created_at.toISOString(),
    date_updated: c.updated_at.toISOString(),
  };
}

const invalid = (field: string, message: string) => new DomainException(ErrorCodes.ValidationError, `${field} ${message}`, [{ field, message }]);

/** Callback management: every query is scoped to the caller's business and mode. */
@Injectable()
export class CallbacksService {
  constructor(
    private readonly ds: DataSource,
    private readonly sender: HttpSender,
    private readonly queue: DeliveryQueue,
    private readonly store: CallbackStore,
    private readonly deliveryLog: DeliveryAdminStore,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
  ) {}

  private async validateTarget(url: string): Promise<void> {
    const problem = callbackUrlProblem(url);
    if (problem) throw invalid('url', problem);
    try {
      await this.sender.resolveTarget(new URL(url).hostname);
    } catch (err) {
      const why = err instanceof ForbiddenTargetError ? err.message : `cannot be resolved (${(err as Error).message})`;
      throw invalid('url', `is not allowed: ${why}`);
    }
  }

  private validateEvents(events: string[]): void {
    const unknown = events.filter((e) => !(EVENT_CATALOGUE as readonly string[]).includes(e));
    if (events.length === 0) throw invalid('events', 'must name at least one event');
    if (unknown.length > 0) throw invalid('events', `has unknown event types ${unknown.join(', ')}; valid ones are ${EVENT_CATALOGUE.join(', ')}`);
  }

  async owned(ctx: RpcContext, id: number): Promise<CallbackRow> {
    const row = await this.store.owned(ctx.business_id, ctx.mode, id);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no callback ${id}`);
    return row;
  }

  async create({ ctx, body }: RpcRequest<CreateCallbackBody>): Promise<CallbackView> {
    this.validateEvents(body.events);
    await this.validateTarget(body.url);
    return this.ds.transaction(async (m) => {
      const n = await this.store.countLiveLocked(m, ctx.business_id, ctx.mode);
      if (n >= this.config.WEBHOOK_MAX_CALLBACKS) {
        throw new DomainException(ErrorCodes.ValidationError, `a business may register at most ${this.config.WEBHOOK_MAX_CALLBACKS} callbacks per mode`);
      }
      const row = await this.store.insert(m, {
        businessId: ctx.business_id,
        mode: ctx.mode,
        url: body.url,
        description: body.description ?? '',
        events: [...new Set(body.events)],
        secret: newWebhookSecret(),
      });
      return toView(row);
    });
  }

  async list({ ctx, body }: RpcRequest<ListCallbacksBody>): Promise<ListCallbacksResult> {
    const { rows, hasMore, total } = await this.store.page(ctx.business_id, ctx.mode, body);
    return { callbacks: rows.map(toView), total_count: total, has_more: hasMore };
  }

  async get({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<CallbackView> {
    return toView(await this.owned(ctx, body.id));
  }

  async update({ ctx, body }: RpcRequest<UpdateCallbackBody>): Promise<CallbackView> {
    const current = await this.owned(ctx, body.id);
    if (body.events) this.validateEvents(body.events);
    if (body.url !== undefined) await this.validateTarget(body.url);
    // Whether this enables it again is decided by the statement that updates the row, as it finds it (CallbackStore.update), not on `current`.
    const row = await this.store.update(current.id, {
      url: body.url ?? null,
      events: body.events ? [...new Set(body.events)] : null,
      description: body.description ?? null,
      isActive: body.is_active ?? null,
    });
    return toView(row);
  }

  /** Removes the callback from every read and cancels what it had pending. */
  async remove({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<void> {
    const current = await this.owned(ctx, body.id);
    await this.ds.transaction(async (m) => {
      // The callback row first, then its deliveries: the same lock order as recording an attempt.
      await this.store.softDelete(m, current.id);
      await this.deliveryLog.cancelPendingOf(m, current.id);
    });
  }

  async secret({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<CallbackSecretView> {
    const c = await this.owned(ctx, body.id);
    const prevLive = c.previous_secret_expires_at && c.previous_secret_expires_at > new Date();
    return { secret: c.secret, previous_secret_expires_at: prevLive ? c.previous_secret_expires_at!.toISOString() : null };
  }

  /** A new signing secret; the old one keeps signing beside it for the grace period. */
  async rollSecret({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<CallbackSecretView> {
    const c = await this.owned(ctx, body.id);
    const row = await this.store.rollSecret(c.id, newWebhookSecret(), this.config.WEBHOOK_SECRET_ROLL_GRACE_SECONDS);
    return { secret: row.secret, previous_secret_expires_at: row.previous_secret_expires_at?.toISOString() ?? null };
  }

  async deliveries({ ctx, body }: RpcRequest<ListDeliveriesBody>): Promise<ListDeliveriesResult> {
    const c = await this.owned(ctx, body.id);
    const { rows, hasMore, total } = await this.deliveryLog.page(c.id, body.status ?? null, body);
    return {
      total_count: total,
      has_more: hasMore,
      deliveries: rows.map((r) => ({
        delivery_id: r.public_id,
        event_id: r.event_id,
        event: r.event_type,
        status: r.status,
        attempts: (r.attempts ?? []).map((a) => ({ ...a, date_created: new Date(a.date_created).toISOString() })),
        next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
        date_created: r.created_at.toISOString(),
      })),
    };
  }

  /** Sends one delivery again (a fresh retry cycle), whatever its outcome so far. */
  async resend({ ctx, body }: RpcRequest<ResendDeliveryBody>): Promise<DeliveryView['status']> {
    const c = await this.owned(ctx, body.id);
    if (!c.is_active) throw new DomainException(ErrorCodes.ValidationError, 'the callback is disabled; enable it (PUT is_active=true) first');
    const resent = await this.deliveryLog.resend(c.id, body.delivery_id);
    if (!resent) throw new DomainException(ErrorCodes.NotFound, `no delivery ${body.delivery_id} that can be sent again now`);
    this.queue.wake();
    return 'pending';
  }

  /**
   * Queues again every failed or skipped delivery of the callback created since `since`: what
   * failed before it was disabled and what was raised while it was.
   */
  async recover({ ctx, body }: RpcRequest<RecoverDeliveriesBody>): Promise<RecoverDeliveriesResult> {
    const c = await this.owned(ctx, body.id);
    if (!c.is_active) throw new DomainException(ErrorCodes.ValidationError, 'the callback is disabled; enable it (PUT is_active=true) first');
    const rows = await this.deliveryLog.recover({ callbackId: c.id }, body.since, { dryRun: false, after: null, limit: null });
    this.queue.wake();
    return { requeued: rows.length };
  }
}
