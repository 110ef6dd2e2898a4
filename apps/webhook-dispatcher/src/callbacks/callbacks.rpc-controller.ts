import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  WebhookRpcPatterns,
  type CallbackIdBody,
  type CreateCallbackBody,
  type ListCallbacksBody,
  type ListDeliveriesBody,
  type RecoverDeliveriesBody,
  type ResendDeliveryBody,
  type RpcRequest,
  type UpdateCallbackBody,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { CallbacksService } from './callbacks.usecases';

@RpcController()
export class CallbacksRpcController {
  constructor(private readonly callbacks: CallbacksService) {}

  @MessagePattern(WebhookRpcPatterns.CallbacksCreate)
  create(@Payload() req: RpcRequest<CreateCallbackBody>) {
    return this.callbacks.create(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksList)
  list(@Payload() req: RpcRequest<ListCallbacksBody>) {
    return this.callbacks.list(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksGet)
  get(@Payload() req: RpcRequest<CallbackIdBody>) {
    return this.callbacks.get(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksUpdate)
  update(@Payload() req: RpcRequest<UpdateCallbackBody>) {
    return this.callbacks.update(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksDelete)
  async remove(@Payload() req: RpcRequest<CallbackIdBody>) {
    await this.callbacks.remove(req);
    return { deleted: true };
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksSecret)
  secret(@Payload() req: RpcRequest<CallbackIdBody>) {
    return this.callbacks.secret(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksRollSecret)
  roll(@Payload() req: RpcRequest<CallbackIdBody>) {
    return this.callbacks.rollSecret(req);
  }

  @MessagePattern(WebhookRpcPatterns.DeliveriesList)
  deliveries(@Payload() req: RpcRequest<ListDeliveriesBody>) {
    return this.callbacks.deliveries(req);
  }

  @MessagePattern(WebhookRpcPatterns.DeliveriesResend)
  async resend(@Payload() req: RpcRequest<ResendDeliveryBody>) {
    return { status: await this.callbacks.resend(req) };
  }

  @MessagePattern(WebhookRpcPatterns.DeliveriesRecover)
  recover(@Payload() req: RpcRequest<RecoverDeliveriesBody>) {
    return this.callbacks.recover(req);
  }
}
