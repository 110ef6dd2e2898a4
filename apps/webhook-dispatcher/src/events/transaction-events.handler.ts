import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope, RefundStatusChangedData, SettlementInvoiceChangedData, TransactionStatusChangedData } from '@payments/contracts';
import { DeliveryStore } from '../delivery/delivery-store';
import { catalogueEventsForTransaction, type CatalogueEvent } from './catalogue';

/** Deterministic webhook event id: the same source event and name always give the same evt_ id. */
export function webhookEventId(sourceEventId: string, eventType: string): string {
  return `evt_${createHash('sha256').update(`${sourceEventId}:${eventType}`).digest('base64url').slice(0, 24)}`;
}

/** The public payload of a transaction webhook: verify-shaped, plus previous_status. */
function transactionPayload(data: TransactionStatusChangedData) {
  const t = data.transaction;
  return {
    transaction_id: t.transaction_id,
    transaction_reference: t.transaction_reference,
    amount: t.amount,
    charges: t.charges,
    total: t.total,
    currency: t.currency,
    status: t.status,
    previous_status: data.previous_status,
    message: t.message,
    emailAddress: t.email,
    payment_method_type: t.payment_method_type,
    payment_method_code: t.payment_method_code,
    dateCreated: t.date_created,
  };
}

function refundPayload(data: RefundStatusChangedData) {
  const r = data.refund;
  return {
    refund_id: r.refund_id,
    transaction_id: r.transaction.transaction_id,
    transaction_reference: r.transaction.transaction_reference,
    amount: r.amount,
    currency: r.currency,
    status: r.status,
    previous_status: data.previous_status,
    message: r.message,
    date_created: r.date_created,
  };
}

/**
 * Turns domain events into catalogue events (webhook_events) and one delivery per subscribed
 * active callback — all inside the consumer's inbox transaction, so exactly once per source event.
 */
@Injectable()
export class WebhookEventsHandler {
  constructor(private readonly deliveries: DeliveryStore) {}

  private async emit(m: EntityManager, source: EventEnvelope, types: CatalogueEvent[], payload: unknown): Promise<void> {
    for (const type of types) {
      const id = webhookEventId(source.id, type);
      const inserted = await m.query(
        `INSERT INTO webhook_events (id, source_event_id, business_id, mode, event_type, payload, created_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING RETURNING id`,
        [id, source.id, source.business_id, source.mode, type, JSON.stringify(payload), source.occurred_at],
      );
      if (inserted.length > 0) await this.deliveries.fanOut(m, id, source.business_id, source.mode, type);
    }
  }

  async onTransaction(event: EventEnvelope, m: EntityManager): Promise<void> {
    const data = event.data as TransactionStatusChangedData;
    await this.emit(m, event, catalogueEventsForTransaction(data), transactionPayload(data));
  }

  async onRefund(event: EventEnvelope, m: EntityManager): Promise<void> {
    const data = event.data as RefundStatusChangedData;
    await this.emit(m, event, [`refund.${data.status}` as CatalogueEvent], refundPayload(data));
  }

  async onInvoice(event: EventEnvelope, m: EntityManager): Promise<void> {
    const data = event.data as SettlementInvoiceChangedData;
    const type: CatalogueEvent | null = data.status === 'issued' ? 'payout.created' : data.status === 'paid' ? 'payout.completed' : null;
    if (type) await this.emit(m, event, [type], { ...data.invoice, status: data.status });
  }
}
