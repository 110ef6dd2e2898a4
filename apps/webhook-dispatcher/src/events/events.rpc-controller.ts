import { MessagePattern, Payload } from '@nestjs/microservices';
import { WebhookRpcPatterns, type EventDeliveriesBody, type EventIdBody, type EventsOfTransactionBody, type ListEventsBody, type RpcRequest } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { DeliveryAdminStore } from '../delivery/delivery-admin-store';
import { EventsStore } from './events-store';

@RpcController()
export class EventsRpcController {
  constructor(
    private readonly events: EventsStore,
    private readonly deliveriesStore: DeliveryAdminStore,
  ) {}

  @MessagePattern(WebhookRpcPatterns.EventsList)
  list(@Payload() req: RpcRequest<ListEventsBody>) {
    return this.events.list(req.ctx, req.body);
  }

  @MessagePattern(WebhookRpcPatterns.EventsGet)
  get(@Payload() req: RpcRequest<EventIdBody>) {
    return this.events.get(req.ctx, req.body.id);
  }

  @MessagePattern(WebhookRpcPatterns.EventsOfTransaction)
  ofTransaction(@Payload() req: RpcRequest<EventsOfTransactionBody>) {
    return this.events.ofTransaction(req.ctx, req.body.transaction_id);
  }

  @MessagePattern(WebhookRpcPatterns.EventsDeliveries)
  deliveries(@Payload() req: RpcRequest<EventDeliveriesBody>) {
    return this.deliveriesStore.deliveriesOf(req.ctx, req.body.event_id);
  }
}
