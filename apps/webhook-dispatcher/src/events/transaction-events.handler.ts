import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope, TransactionStatusChangedData } from '@payments/contracts';
import { catalogueEventsForTransaction } from './catalogue';

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

/** Turns a transaction status change into the catalogue events callbacks subscribe to. */
@Injectable()
export class TransactionEventsHandler {
  async handle(event: EventEnvelope, m: EntityManager): Promise<void> {
    const data = event.data as TransactionStatusChangedData;
    const payload = transactionPayload(data);
    for (const type of catalogueEventsForTransaction(data)) {
      await m.query(
        `INSERT INTO webhook_events (id, source_event_id, business_id, mode, event_type, payload, created_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING`,
        [webhookEventId(event.id, type), event.id, event.business_id, event.mode, type, JSON.stringify(payload), event.occurred_at],
      );
    }
  }
}
