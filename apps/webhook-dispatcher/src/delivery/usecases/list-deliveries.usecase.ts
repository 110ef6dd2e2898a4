import { Injectable } from '@nestjs/common';
import type { ListDeliveriesBody, ListDeliveriesResult, RpcRequest } from '@payments/contracts';
import { CallbackStore } from '../../callbacks/callback-store';
import { DeliveryAdminStore } from '../delivery-admin-store';

/** One of the caller's callbacks' delivery log: newest first, each with its attempts. */
@Injectable()
export class ListDeliveriesUseCase {
  constructor(
    private readonly callbacks: CallbackStore,
    private readonly deliveryLog: DeliveryAdminStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<ListDeliveriesBody>): Promise<ListDeliveriesResult> {
    const c = await this.callbacks.ownedOrNotFound(ctx, body.id);
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
}
