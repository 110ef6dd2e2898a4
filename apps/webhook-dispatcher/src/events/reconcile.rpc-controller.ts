import { MessagePattern, Payload } from '@nestjs/microservices';
import { ReconcileAdminRpcPatterns, type ReconcilePageBody, type ReconcileWebhookTransactionsBody } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { ReconcileWebhooksUseCase } from './usecases/reconcile-webhooks.usecase';

/** Operator patterns (`admin.*`): reached only through the gateway's admin API. */
@RpcController()
export class ReconcileWebhooksRpcController {
  constructor(private readonly reconcile: ReconcileWebhooksUseCase) {}

  @MessagePattern(ReconcileAdminRpcPatterns.WebhookTransactions)
  transactions(@Payload() req: { body: ReconcileWebhookTransactionsBody }) {
    return this.reconcile.transactions(req.body);
  }

  @MessagePattern(ReconcileAdminRpcPatterns.WebhookEvents)
  events(@Payload() req: { body: ReconcilePageBody }) {
    return this.reconcile.events(req.body);
  }

  @MessagePattern(ReconcileAdminRpcPatterns.WebhookCallbacks)
  callbacks(@Payload() req: { body: ReconcilePageBody }) {
    return this.reconcile.callbacks(req.body);
  }
}
