import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ReconcileAdminRpcPatterns,
  type ReconcilePageBody,
  type ReconcileWebhookTransactionsBody,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { ReconcileCallbacksUseCase } from './usecases/reconcile-callbacks.usecase';
import { ReconcileEventsUseCase } from './usecases/reconcile-events.usecase';
import { ReconcileTransactionsUseCase } from './usecases/reconcile-transactions.usecase';

/** Operator patterns (`admin.*`): reached only through the gateway's admin API. */
@RpcController()
export class ReconcileWebhooksRpcController {
  constructor(
    private readonly transactionsPage: ReconcileTransactionsUseCase,
    private readonly eventsPage: ReconcileEventsUseCase,
    private readonly callbacksPage: ReconcileCallbacksUseCase,
  ) {}

  @MessagePattern(ReconcileAdminRpcPatterns.WebhookTransactions)
  transactions(@Payload() req: { body: ReconcileWebhookTransactionsBody }) {
    return this.transactionsPage.execute(req.body);
  }

  @MessagePattern(ReconcileAdminRpcPatterns.WebhookEvents)
  events(@Payload() req: { body: ReconcilePageBody }) {
    return this.eventsPage.execute(req.body);
  }

  @MessagePattern(ReconcileAdminRpcPatterns.WebhookCallbacks)
  callbacks(@Payload() req: { body: ReconcilePageBody }) {
    return this.callbacksPage.execute(req.body);
  }
}
