import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  WebhookRpcPatterns,
  type EventDeliveriesBody,
  type EventIdBody,
  type EventsOfTransactionBody,
  type ListEventsBody,
  type RpcRequest,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { GetEventUseCase } from './usecases/get-event.usecase';
import { ListEventDeliveriesUseCase } from './usecases/list-event-deliveries.usecase';
import { ListEventsOfTransactionUseCase } from './usecases/list-events-of-transaction.usecase';
import { ListEventsUseCase } from './usecases/list-events.usecase';

@RpcController()
export class EventsRpcController {
  constructor(
    private readonly listEvents: ListEventsUseCase,
    private readonly getEvent: GetEventUseCase,
    private readonly eventsOfTransaction: ListEventsOfTransactionUseCase,
    private readonly eventDeliveries: ListEventDeliveriesUseCase,
  ) {}

  @MessagePattern(WebhookRpcPatterns.EventsList)
  list(@Payload() req: RpcRequest<ListEventsBody>) {
    return this.listEvents.execute(req);
  }

  @MessagePattern(WebhookRpcPatterns.EventsGet)
  get(@Payload() req: RpcRequest<EventIdBody>) {
    return this.getEvent.execute(req);
  }

  @MessagePattern(WebhookRpcPatterns.EventsOfTransaction)
  ofTransaction(@Payload() req: RpcRequest<EventsOfTransactionBody>) {
    return this.eventsOfTransaction.execute(req);
  }

  @MessagePattern(WebhookRpcPatterns.EventsDeliveries)
  deliveries(@Payload() req: RpcRequest<EventDeliveriesBody>) {
    return this.eventDeliveries.execute(req);
  }
}
