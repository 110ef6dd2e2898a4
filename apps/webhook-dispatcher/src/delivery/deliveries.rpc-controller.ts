import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  WebhookAdminRpcPatterns,
  WebhookRpcPatterns,
  type AdminRecoverDeliveriesBody,
  type ListDeliveriesBody,
  type RecoverDeliveriesBody,
  type ResendDeliveryBody,
  type RpcRequest,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { AdminRecoverUseCase } from './usecases/admin-recover.usecase';
import { ListDeliveriesUseCase } from './usecases/list-deliveries.usecase';
import { RecoverDeliveriesUseCase } from './usecases/recover-deliveries.usecase';
import { ResendDeliveryUseCase } from './usecases/resend-delivery.usecase';

/**
 * A callback's deliveries: its delivery log, resend, recover; and the operator's recovery of a whole
 * business and mode (`admin.*`: reached only through the gateway's admin API, the RPC server refuses
 * it otherwise).
 */
@RpcController()
export class DeliveriesRpcController {
  constructor(
    private readonly list: ListDeliveriesUseCase,
    private readonly resendOne: ResendDeliveryUseCase,
    private readonly recoverSince: RecoverDeliveriesUseCase,
    private readonly recovery: AdminRecoverUseCase,
  ) {}

  @MessagePattern(WebhookRpcPatterns.DeliveriesList)
  deliveries(@Payload() req: RpcRequest<ListDeliveriesBody>) {
    return this.list.execute(req);
  }

  @MessagePattern(WebhookRpcPatterns.DeliveriesResend)
  async resend(@Payload() req: RpcRequest<ResendDeliveryBody>) {
    return { status: await this.resendOne.execute(req) };
  }

  @MessagePattern(WebhookRpcPatterns.DeliveriesRecover)
  recover(@Payload() req: RpcRequest<RecoverDeliveriesBody>) {
    return this.recoverSince.execute(req);
  }

  @MessagePattern(WebhookAdminRpcPatterns.DeliveriesRecover)
  adminRecover(@Payload() req: { body: AdminRecoverDeliveriesBody }) {
    return this.recovery.execute(req.body);
  }
}
