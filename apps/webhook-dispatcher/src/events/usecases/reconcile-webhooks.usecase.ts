import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type {
  ReconcileCallbacksResult,
  ReconcilePageBody,
  ReconcileWebhookEvent,
  ReconcileWebhookEventsResult,
  ReconcileWebhookTransactionsBody,
  ReconcileWebhookTransactionsResult,
} from '@payments/contracts';
import { WebhookDispatcherConfig } from '../../config/webhook.config';
import { DeliveryAdminStore } from '../../delivery/delivery-admin-store';
import { parseDuration } from '../../delivery/disable-rule';
import { EventsStore } from '../events-store';
import { CallbackStore } from '../../callbacks/callback-store';

const pageSize = (limit: number) => Math.min(Math.max(1, Math.trunc(limit) || 1), 1_000);

/** What webhook-dispatcher recorded, for `ops reconcile`: read-only pages. */
@Injectable()
export class ReconcileWebhooksUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly eventStore: EventsStore,
    private readonly deliveries: DeliveryAdminStore,
    private readonly callbackStore: CallbackStore,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
  ) {}

  /** The status of the latest transaction.* event of each given transaction (by public id). */
  async transactions(body: ReconcileWebhookTransactionsBody): Promise<ReconcileWebhookTransactionsResult> {
    const ids = body.transaction_ids.slice(0, 1_000);
    const retained_since = new Date(Date.now() - parseDuration(this.config.EVENT_RETENTION)).toISOString();
    if (ids.length === 0) return { transactions: [], retained_since };
    const rows = await this.eventStore.latestTransactionStatuses(ids);
    return { transactions: rows, retained_since };
  }

  /** Catalogue events in id order, each with the callbacks it has a delivery for. */
  async events(body: ReconcilePageBody): Promise<ReconcileWebhookEventsResult> {
    const limit = pageSize(body.limit);
    // Both reads in one snapshot, so an event is seen with exactly the deliveries it had.
    const rows = await this.ds.transaction('REPEATABLE READ', async (m) => {
      const events = await this.eventStore.reconcilePage(m, body.after ?? '', limit);
      const deliveredTo = await this.deliveries.deliveredTo(m, events.map((e) => e.event_id));
      return events.map((e) => ({ ...e, mode: e.mode as ReconcileWebhookEvent['mode'], delivered_to: deliveredTo.get(e.event_id) ?? [] }));
    });
    return {
      events: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      next: rows.length === limit ? rows[rows.length - 1].event_id : null,
    };
  }

  async callbacks(body: ReconcilePageBody): Promise<ReconcileCallbacksResult> {
    const limit = pageSize(body.limit);
    const after = body.after !== null && /^\d{1,10}$/.test(body.after) ? Number(body.after) : 0;
    const rows = await this.callbackStore.reconcilePage(after, limit);
    return {
      callbacks: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      next: rows.length === limit ? String(rows[rows.length - 1].id) : null,
    };
  }
}
