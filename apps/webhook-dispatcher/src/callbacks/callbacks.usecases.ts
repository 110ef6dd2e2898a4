import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
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
import { queryRows } from '@payments/database';
import { DomainException } from '@payments/platform';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { DeliveryStore, type CallbackRow } from '../delivery/delivery-store';
import { ForbiddenTargetError, HttpSender } from '../delivery/http-sender';
import { newWebhookSecret } from '../delivery/signature';
import { callbackUrlProblem } from '../delivery/ssrf';
import { EVENT_CATALOGUE } from '../events/catalogue';

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
    private readonly store: DeliveryStore,
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
    const [row] = await queryRows<CallbackRow>(this.ds, 'SELECT * FROM callbacks WHERE id = $1 AND business_id = $2 AND mode = $3 AND deleted_at IS NULL', [
      id,
      ctx.business_id,
      ctx.mode,
    ]);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no callback ${id}`);
    return row;
  }

  async create({ ctx, body }: RpcRequest<CreateCallbackBody>): Promise<CallbackView> {
    this.validateEvents(body.events);
    await this.validateTarget(body.url);
    return this.ds.transaction(async (m) => {
      // Serialise creations per business and mode so the maximum holds under concurrency.
      await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`callbacks:${ctx.business_id}:${ctx.mode}`]);
      const [{ n }] = await queryRows<{ n: number }>(m, 'SELECT count(*)::int AS n FROM callbacks WHERE business_id = $1 AND mode = $2 AND deleted_at IS NULL', [
        ctx.business_id,
        ctx.mode,
      ]);
      if (n >= this.config.WEBHOOK_MAX_CALLBACKS) {
        throw new DomainException(ErrorCodes.ValidationError, `a business may register at most ${this.config.WEBHOOK_MAX_CALLBACKS} callbacks per mode`);
      }
      const [row] = await queryRows<CallbackRow>(
        m,
        'INSERT INTO callbacks (business_id, mode, url, description, events, secret) VALUES ($1,$2,$3,$4,$5,$6) RETURNING *',
        [ctx.business_id, ctx.mode, body.url, body.description ?? '', [...new Set(body.events)], newWebhookSecret()],
      );
      return toView(row);
    });
  }

  async list({ ctx, body }: RpcRequest<ListCallbacksBody>): Promise<ListCallbacksResult> {
    const rows = await queryRows<CallbackRow & { total: number }>(
      this.ds,
      `SELECT *, count(*) OVER ()::int AS total FROM callbacks WHERE business_id = $1 AND mode = $2 AND deleted_at IS NULL
        ORDER BY id DESC LIMIT $3 OFFSET $4`,
      [ctx.business_id, ctx.mode, body.limit, body.skip],
    );
    let total = rows[0]?.total;
    if (total === undefined) {
      [{ total }] = await queryRows<{ total: number }>(this.ds, 'SELECT count(*)::int AS total FROM callbacks WHERE business_id = $1 AND mode = $2 AND deleted_at IS NULL', [
        ctx.business_id,
        ctx.mode,
      ]);
    }
    return { callbacks: rows.map(toView), total_count: total };
  }

  async get({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<CallbackView> {
    return toView(await this.owned(ctx, body.id));
  }

  async update({ ctx, body }: RpcRequest<UpdateCallbackBody>): Promise<CallbackView> {
    const current = await this.owned(ctx, body.id);
    if (body.events) this.validateEvents(body.events);
    if (body.url !== undefined) await this.validateTarget(body.url);
    const reenabled = body.is_active === true && !current.is_active;
    const [row] = await queryRows<CallbackRow>(
      this.ds,
      `UPDATE callbacks SET url = COALESCE($2, url), events = COALESCE($3, events), description = COALESCE($4, description),
          is_active = COALESCE($5, is_active),
          failure_count = CASE WHEN $6 THEN 0 ELSE failure_count END,
          failing_since = CASE WHEN $6 THEN NULL ELSE failing_since END,
          disabled_reason = CASE WHEN $6 THEN NULL WHEN $5 = false THEN 'disabled by the merchant' ELSE disabled_reason END,
          updated_at = now()
        WHERE id = $1 RETURNING *`,
      [current.id, body.url ?? null, body.events ? [...new Set(body.events)] : null, body.description ?? null, body.is_active ?? null, reenabled],
    );
    return toView(row);
  }

  /** Removes the callback from every read and cancels what it had pending. */
  async remove({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<void> {
    const current = await this.owned(ctx, body.id);
    await this.ds.transaction(async (m) => {
      // The callback row first, then its deliveries: the same lock order as recording an attempt.
      await m.query('UPDATE callbacks SET deleted_at = now(), is_active = false, updated_at = now() WHERE id = $1', [current.id]);
      await m.query(
        "UPDATE deliveries SET status = 'cancelled', last_error = 'callback deleted', next_attempt_at = NULL, updated_at = now() WHERE callback_id = $1 AND status = 'pending'",
        [current.id],
      );
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
    const [row] = await queryRows<CallbackRow>(
      this.ds,
      `UPDATE callbacks SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(secs => $3), secret = $2, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [c.id, newWebhookSecret(), this.config.WEBHOOK_SECRET_ROLL_GRACE_SECONDS],
    );
    return { secret: row.secret, previous_secret_expires_at: row.previous_secret_expires_at?.toISOString() ?? null };
  }

  async deliveries({ ctx, body }: RpcRequest<ListDeliveriesBody>): Promise<ListDeliveriesResult> {
    const c = await this.owned(ctx, body.id);
    const rows = await queryRows<{
      public_id: string;
      event_id: string;
      event_type: string;
      status: DeliveryView['status'];
      next_attempt_at: Date | null;
      created_at: Date;
      attempts: DeliveryView['attempts'] | null;
      total: number;
    }>(
      this.ds,
      `SELECT d.public_id, d.event_id, e.event_type, d.status, d.next_attempt_at, d.created_at, count(*) OVER ()::int AS total,
              (SELECT json_agg(json_build_object('attempt', a.attempt, 'status_code', a.status_code, 'duration_ms', a.duration_ms,
                                                 'error', a.error, 'date_created', a.created_at) ORDER BY a.attempt)
                 FROM delivery_attempts a WHERE a.delivery_id = d.id) AS attempts
         FROM deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.callback_id = $1 AND ($2::text IS NULL OR d.status = $2)
        ORDER BY d.created_at DESC, d.id DESC LIMIT $3 OFFSET $4`,
      [c.id, body.status ?? null, body.limit, body.skip],
    );
    // Past the last page the window count has no row to ride on: count on its own.
    let total = rows[0]?.total;
    if (total === undefined) {
      [{ total }] = await queryRows<{ total: number }>(this.ds, 'SELECT count(*)::int AS total FROM deliveries WHERE callback_id = $1 AND ($2::text IS NULL OR status = $2)', [
        c.id,
        body.status ?? null,
      ]);
    }
    return {
      total_count: total,
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
    const rows = await queryRows<{ status: DeliveryView['status'] }>(
      this.ds,
      `UPDATE deliveries SET status = 'pending', cycle_start = attempts, next_attempt_at = now(), enqueued_at = NULL, last_error = NULL, updated_at = now()
        WHERE callback_id = $1 AND public_id = $2 AND (locked_until IS NULL OR locked_until < now()) RETURNING status`,
      [c.id, body.delivery_id],
    );
    if (rows.length === 0) throw new DomainException(ErrorCodes.NotFound, `no delivery ${body.delivery_id} that can be sent again now`);
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
    const rows = await this.store.recover({ callbackId: c.id }, body.since, { dryRun: false, after: null, limit: null });
    this.queue.wake();
    return { requeued: rows.length };
  }
}
