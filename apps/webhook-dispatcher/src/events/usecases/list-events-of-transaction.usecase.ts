import { Injectable } from '@nestjs/common';
import type { EventsOfTransactionBody, EventsOfTransactionResult, RpcRequest } from '@payments/contracts';
import { EventsStore } from '../events-store';

/** A transaction's and its refunds' events, oldest first (the dashboard's payment timeline). */
@Injectable()
export class ListEventsOfTransactionUseCase {
  constructor(private readonly events: EventsStore) {}

  execute({ ctx, body }: RpcRequest<EventsOfTransactionBody>): Promise<EventsOfTransactionResult> {
    return this.events.ofTransaction(ctx, body.transaction_id);
  }
}
