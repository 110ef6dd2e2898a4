import { MessagePattern, Payload } from '@nestjs/microservices';
import { RpcPatterns, type CheckoutGetBody, type CheckoutPayBody, type CheckoutRpcRequest } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { GetCheckoutUseCase } from './usecases/get-checkout.usecase';
import { PayCheckoutUseCase } from './usecases/pay-checkout.usecase';

/** Thin RPC handlers: decode, call the use case; RpcController (rpcReply) maps results and refusals. */
@RpcController()
export class CheckoutRpcController {
  constructor(
    private readonly get: GetCheckoutUseCase,
    private readonly pay: PayCheckoutUseCase,
  ) {}

  @MessagePattern(RpcPatterns.CheckoutGet)
  onGet(@Payload() req: CheckoutRpcRequest<CheckoutGetBody>) {
    return this.get.execute(req);
  }

  @MessagePattern(RpcPatterns.CheckoutPay)
  onPay(@Payload() req: CheckoutRpcRequest<CheckoutPayBody>) {
    return this.pay.execute(req);
  }
}
