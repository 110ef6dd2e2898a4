import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ReconcileAdminRpcPatterns,
  type ReconcilePageBody,
  type ReconcileWebhookTransactionsBody,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { ReconcileEventsUseCase } from './usecases/reconcile-events.usecase';
import { ReconcileTransactionsUseCase } from './usecases/reconcile-transactions.usecase';

/**
 * Reconcile's pages of what was recorded, operator patterns (`admin.*`) reached only through the
 * gateway's admin API; its page of callbacks is served by callbacks/reconcile.rpc-controller.ts.
 */
@RpcController()
export class ReconcileWebhooksRpcController {
  constructor(
    private readonly transactionsPage: ReconcileTransactionsUseCase,
    private readonly eventsPage: ReconcileEventsUseCase,
  ) {}

  @MessagePattern(ReconcileAdminRpcPatterns.WebhookTransactions)
  transactions(@Payload() req: { body: ReconcileWebhookTransactionsBody }) {
    return this.transactionsPage.execute(req.body);
  }

  @MessagePattern(ReconcileAdminRpcPatterns.WebhookEvents)
  events(@Payload() req: { body: ReconcilePageBody }) {
    return this.eventsPage.execute(req.body);
  }
}
