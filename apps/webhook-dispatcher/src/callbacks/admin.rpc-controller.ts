import { MessagePattern, Payload } from '@nestjs/microservices';
import { WebhookAdminRpcPatterns, type AdminRecoverDeliveriesBody } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { AdminRecoverUseCase } from './admin-recover.usecase';

/** Operator patterns (`admin.*`): reached only through the gateway's admin API. */
@RpcController()
export class WebhookAdminRpcController {
  constructor(private readonly recovery: AdminRecoverUseCase) {}

  @MessagePattern(WebhookAdminRpcPatterns.DeliveriesRecover)
  recover(@Payload() req: { body: AdminRecoverDeliveriesBody }) {
    return this.recovery.execute(req.body);
  }
}
