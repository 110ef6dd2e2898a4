import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type {
  ReconcileCallback,
  ReconcileCallbacksResult,
  ReconcilePageBody,
  ReconcileWebhookEvent,
  ReconcileWebhookEventsResult,
  ReconcileWebhookTransactionsBody,
  ReconcileWebhookTransactionsResult,
  TransactionStatus,
} from '@payments/contracts';
import { queryRows } from '@payments/database';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { parseDuration } from '../delivery/disable-rule';

const pageSize = (limit: number) => Math.min(Math.max(1, Math.trunc(limit) || 1), 1_000);

/** What webhook-dispatcher recorded, for `ops reconcile`: read-only pages. */
@Injectable()
export class ReconcileWebhooksUseCase {
  constructor(
    private readonly ds: DataSource,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
  ) {}

  /** The status of the latest transaction.* event of each given transaction (by public id). */
  async transactions(body: ReconcileWebhookTransactionsBody): Promise<ReconcileWebhookTransactionsResult> {
    const ids = body.transaction_ids.slice(0, 1_000);
    const retained_since = new Date(Date.now() - parseDuration(this.config.EVENT_RETENTION)).toISOString();
    if (ids.length === 0) return { transactions: [], retained_since };
    // Events of one transaction can share a timestamp; the status order breaks the tie.
    const rows = await queryRows<{ transaction_id: string; status: TransactionStatus }>(
      this.ds,
      `SELECT DISTINCT ON (payload->>'transaction_id') payload->>'transaction_id' AS transaction_id, split_part(event_type, '.', 2) AS status
         FROM webhook_events
        WHERE event_type LIKE 'transaction.%' AND payload->>'transaction_id' = ANY($1::text[])
        ORDER BY payload->>'transaction_id', created_at DESC,
                 CASE split_part(event_type, '.', 2) WHEN 'pending' THEN 0 WHEN 'processing' THEN 1 ELSE 2 END DESC`,
      [ids],
    );
    return { transactions: rows, retained_since };
  }

  /** Catalogue events in id order, each with the callbacks it has a delivery for. */
  async events(body: ReconcilePageBody): Promise<ReconcileWebhookEventsResult> {
    const limit = pageSize(body.limit);
    const rows = await queryRows<Omit<ReconcileWebhookEvent, 'created_at'> & { created_at: Date }>(
      this.ds,
      `SELECT e.id AS event_id, e.event_type, e.business_id, e.mode, e.created_at,
              COALESCE((SELECT array_agg(d.callback_id ORDER BY d.callback_id) FROM deliveries d WHERE d.event_id = e.id), '{}') AS delivered_to
         FROM webhook_events e WHERE e.id > $1 ORDER BY e.id LIMIT $2`,
      [body.after ?? '', limit],
    );
    return {
      events: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      next: rows.length === limit ? rows[rows.length - 1].event_id : null,
    };
  }

  async callbacks(body: ReconcilePageBody): Promise<ReconcileCallbacksResult> {
    const limit = pageSize(body.limit);
    const after = body.after !== null && /^\d{1,10}$/.test(body.after) ? Number(body.after) : 0;
    const rows = await queryRows<Omit<ReconcileCallback, 'created_at'> & { created_at: Date }>(
      this.ds,
      `SELECT id, business_id, mode, events, is_active, deleted_at IS NOT NULL AS deleted, created_at
         FROM callbacks WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, limit],
    );
    return {
      callbacks: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      next: rows.length === limit ? String(rows[rows.length - 1].id) : null,
    };
  }
}
