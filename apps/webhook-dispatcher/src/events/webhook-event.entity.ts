import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Mode } from '@payments/contracts';

/**
 * One catalogue event to be sent to a business's callbacks (the "message" of a webhook system).
 * Its id (evt_…) is the webhook-id receivers dedupe on; it is derived from the source event, so a
 * replayed Kafka event maps to the same row.
 */
@Entity({ name: 'webhook_events' })
export class WebhookEventEntity {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'source_event_id', type: 'text' }) sourceEventId: string;
  @Column({ name: 'business_id', type: 'integer' }) businessId: number;
  @Column({ type: 'text' }) mode: Mode;
  @Column({ name: 'event_type', type: 'text' }) eventType: string;
  @Column({ type: 'jsonb' }) payload: unknown;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
