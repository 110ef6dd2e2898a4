import { Injectable } from '@nestjs/common';
import type { EventDeliveriesBody, EventDeliveriesResult, RpcRequest } from '@payments/contracts';
import { DeliveryAdminStore } from '../../delivery/delivery-admin-store';

/** The webhook deliveries one of the caller's events caused. */
@Injectable()
export class ListEventDeliveriesUseCase {
  constructor(private readonly deliveries: DeliveryAdminStore) {}

  execute({ ctx, body }: RpcRequest<EventDeliveriesBody>): Promise<EventDeliveriesResult> {
    return this.deliveries.deliveriesOf(ctx, body.event_id);
  }
}
