import { Injectable } from '@nestjs/common';
import type { ListEventsBody, ListEventsResult, RpcRequest } from '@payments/contracts';
import { EventsStore } from '../events-store';

/** The caller's events in its mode, newest first, filtered and paged as the events API asks. */
@Injectable()
export class ListEventsUseCase {
  constructor(private readonly events: EventsStore) {}

  execute({ ctx, body }: RpcRequest<ListEventsBody>): Promise<ListEventsResult> {
    return this.events.list(ctx, body);
  }
}
