import { MessagePattern, Payload } from '@nestjs/microservices';
import { ReconcileAdminRpcPatterns, type ReconcilePageBody } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { ReconcileCallbacksUseCase } from './usecases/reconcile-callbacks.usecase';

/** Reconcile's page of callbacks, an operator pattern (`admin.*`) reached only through the gateway's admin API. */
@RpcController()
export class ReconcileCallbacksRpcController {
  constructor(private readonly callbacksPage: ReconcileCallbacksUseCase) {}

  @MessagePattern(ReconcileAdminRpcPatterns.WebhookCallbacks)
  callbacks(@Payload() req: { body: ReconcilePageBody }) {
    return this.callbacksPage.execute(req.body);
  }
}
