import { Injectable } from '@nestjs/common';
import type { EventIdBody, EventView, RpcRequest } from '@payments/contracts';
import { EventsStore } from '../events-store';

/** One of the caller's events, as its webhook deliveries carry it; another business's is not found. */
@Injectable()
export class GetEventUseCase {
  constructor(private readonly events: EventsStore) {}

  execute({ ctx, body }: RpcRequest<EventIdBody>): Promise<EventView> {
    return this.events.get(ctx, body.id);
  }
}
