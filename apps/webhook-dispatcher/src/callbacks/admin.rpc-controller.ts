import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ReconcileAdminRpcPatterns,
  WebhookAdminRpcPatterns,
  type AdminRecoverDeliveriesBody,
  type ReconcilePageBody,
  type ReconcileWebhookTransactionsBody,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { AdminRecoverUseCase } from './admin-recover.usecase';
import { ReconcileWebhooksUseCase } from './reconcile.usecase';

/** Operator patterns (`admin.*`): reached only through the gateway's admin API. */
@RpcController()
export class WebhookAdminRpcController {
  constructor(
    private readonly recovery: AdminRecoverUseCase,
    private readonly reconcile: ReconcileWebhooksUseCase,
  ) {}

  @MessagePattern(WebhookAdminRpcPatterns.DeliveriesRecover)
  recover(@Payload() req: { body: AdminRecoverDeliveriesBody }) {
    return this.recovery.execute(req.body);
  }

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
