import { Inject, Injectable } from '@nestjs/common';
import type { ReconcileWebhookTransactionsBody, ReconcileWebhookTransactionsResult } from '@payments/contracts';
import { WebhookDispatcherConfig } from '../../config/webhook.config';
import { parseDuration } from '../../delivery/disable-rule';
import { EventsStore } from '../events-store';

/** For `ops reconcile`: the status of the latest transaction.* event of each given transaction (by public id). */
@Injectable()
export class ReconcileTransactionsUseCase {
  constructor(
    private readonly events: EventsStore,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
  ) {}

  async execute(body: ReconcileWebhookTransactionsBody): Promise<ReconcileWebhookTransactionsResult> {
    const ids = body.transaction_ids.slice(0, 1_000);
    const retained_since = new Date(Date.now() - parseDuration(this.config.EVENT_RETENTION)).toISOString();
    if (ids.length === 0) return { transactions: [], retained_since };
    return { transactions: await this.events.latestTransactionStatuses(ids), retained_since };
  }
}
