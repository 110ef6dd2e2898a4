import { MessagePattern, Payload } from '@nestjs/microservices';
import { RefundAdminRpcPatterns, type CheckoutRpcRequest, type ResolveRefundBody } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { ResolveRefundUseCase } from './usecases/resolve-refund.usecase';

/** Operator actions on refunds (admin scope only: the RPC server refuses them otherwise). */
@RpcController()
export class RefundsAdminRpcController {
  constructor(private readonly resolve: ResolveRefundUseCase) {}

  @MessagePattern(RefundAdminRpcPatterns.Resolve)
  onResolve(@Payload() { ctx, body }: CheckoutRpcRequest<ResolveRefundBody>) {
    return this.resolve.execute(body, ctx.request_id);
  }
}
