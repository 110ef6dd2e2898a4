import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import {
  reconcilePageSize,
  type ReconcilePageBody,
  type ReconcileWebhookEvent,
  type ReconcileWebhookEventsResult,
} from '@payments/contracts';
import { DeliveryAdminStore } from '../../delivery/delivery-admin-store';
import { EventsStore } from '../events-store';

/** For `ops reconcile`: a page of recorded events in id order, each with the callbacks it has a delivery for. */
@Injectable()
export class ReconcileEventsUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly events: EventsStore,
    private readonly deliveries: DeliveryAdminStore,
  ) {}

  async execute(body: ReconcilePageBody): Promise<ReconcileWebhookEventsResult> {
    const limit = reconcilePageSize(body.limit);
    // Both reads in one snapshot, so an event is seen with exactly the deliveries it had.
    const rows = await this.ds.transaction('REPEATABLE READ', async (m) => {
      const events = await this.events.reconcilePage(m, body.after ?? '', limit);
      const deliveredTo = await this.deliveries.deliveredTo(
        m,
        events.map((e) => e.event_id),
      );
      return events.map((e) => ({
        ...e,
        mode: e.mode as ReconcileWebhookEvent['mode'],
        delivered_to: deliveredTo.get(e.event_id) ?? [],
      }));
    });
    return {
      events: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      next: rows.length === limit ? rows[rows.length - 1].event_id : null,
    };
  }
}
