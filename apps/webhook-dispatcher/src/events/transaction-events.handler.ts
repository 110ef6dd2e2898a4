import { hash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@payments/database';
import {
  payoutPayload,
  refundPayload,
  transactionPayload,
  type ConsumedEvent,
  type EventEnvelope,
  type EventTypes,
  type WebhookEventBody,
} from '@payments/contracts';
import type { AfterCommit, LastStatement } from '@payments/messaging';
import { DeliveryStore, type FannedOut } from '../delivery/delivery-store';
import { FirstAttempts } from '../delivery/first-attempts';
import { catalogueEventsForTransaction, type CatalogueEvent } from './catalogue';

/**
 * Deterministic webhook event id: the same source event and name always give the same evt_ id. One-shot `hash`: half
 * the CPU of a Hash object for an input this short (a replay computes two or three an event).
 */
export function webhookEventId(sourceEventId: string, eventType: string): string {
  return `evt_${hash('sha256', `${sourceEventId}:${eventType}`, 'base64url').slice(0, 24)}`;
}

/**
 * Turns domain events into catalogue events (webhook_events) and one delivery per subscribed
 * active callback — all inside the consumer's inbox transaction, so exactly once per source event.
 * Each handler takes a list: a consumer batch is recorded in one statement.
 */
@Injectable()
export class WebhookEventsHandler {
  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly first: FirstAttempts,
  ) {}

  /**
   * Records the catalogue events of several source events and their deliveries in one statement, skipping recorded
   * ones: the consumer's `last` statement, which may carry its COMMIT. After commit the new deliveries' first attempts
   * start here (or the enqueuer is woken if too many are).
   */
  private async emit(
    m: EntityManager,
    items: { source: EventEnvelope; types: CatalogueEvent[]; payload: WebhookEventBody['data'] }[],
    last: LastStatement = (sql, params) => m.query(sql, params),
  ): Promise<AfterCommit | undefined> {
    const rows = items.flatMap(({ source, types, payload }) =>
      types.map((type) => ({
        id: webhookEventId(source.id, type),
        source_event_id: source.id,
        business_id: source.business_id,
        mode: source.mode,
        event_type: type,
        payload,
        created_at: source.occurred_at,
      })),
    );
    const handOver = this.first.accepting();
    // Before the statement is sent: the claims it makes hold from a later moment.
    const sentAt = performance.now();
    let deliveries: FannedOut[] | null = null;
    try {
      deliveries = await this.deliveries.recordAndFanOut({ query: last }, rows, handOver);
    } finally {
      if (handOver) this.first.fannedOut(handOver, deliveries);
    }
    const fanned = deliveries;
    if (!fanned.some((d) => d.status === 'pending')) return undefined;
    return handOver ? () => this.first.dispatch(fanned, sentAt, handOver) : () => this.first.wakeQueue();
  }

  async onTransactions(
    events: ConsumedEvent<typeof EventTypes.TransactionStatusChanged>[],
    m: EntityManager,
    last?: LastStatement,
  ): Promise<AfterCommit | undefined> {
    return this.emit(
      m,
      events.map((source) => {
        const data = source.data;
        return { source, types: catalogueEventsForTransaction(data), payload: transactionPayload(data) };
      }),
      last,
    );
  }

  async onRefunds(
    events: ConsumedEvent<typeof EventTypes.RefundStatusChanged>[],
    m: EntityManager,
    last?: LastStatement,
  ): Promise<AfterCommit | undefined> {
    return this.emit(
      m,
      events.map((source) => {
        const data = source.data;
        return { source, types: [`refund.${data.status}` as CatalogueEvent], payload: refundPayload(data) };
      }),
      last,
    );
  }

  async onInvoices(
    events: ConsumedEvent<typeof EventTypes.SettlementInvoiceChanged>[],
    m: EntityManager,
    last?: LastStatement,
  ): Promise<AfterCommit | undefined> {
    return this.emit(
      m,
      events.map((source) => {
        const data = source.data;
        const type: CatalogueEvent | null =
          data.status === 'issued' ? 'payout.created' : data.status === 'paid' ? 'payout.completed' : null;
        return { source, types: type ? [type] : [], payload: payoutPayload(data) };
      }),
      last,
    );
  }
}
