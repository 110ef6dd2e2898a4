import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  RpcPatterns,
  type CreateRefundBody,
  type GetRefundBody,
  type ListRefundsBody,
  type RpcRequest,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { CreateRefundUseCase } from './usecases/create-refund.usecase';
import { GetRefundUseCase } from './usecases/get-refund.usecase';
import { ListRefundsUseCase } from './usecases/list-refunds.usecase';

/** Thin RPC handlers: decode, call the use case; RpcController (rpcReply) maps results and refusals. */
@RpcController()
export class RefundsRpcController {
  constructor(
    private readonly create: CreateRefundUseCase,
    private readonly get: GetRefundUseCase,
    private readonly list: ListRefundsUseCase,
  ) {}

  @MessagePattern(RpcPatterns.RefundsCreate)
  onCreate(@Payload() req: RpcRequest<CreateRefundBody>) {
    return this.create.execute(req);
  }

  @MessagePattern(RpcPatterns.RefundsGet)
  onGet(@Payload() req: RpcRequest<GetRefundBody>) {
    return this.get.execute(req);
  }

  @MessagePattern(RpcPatterns.RefundsList)
  onList(@Payload() req: RpcRequest<ListRefundsBody>) {
    return this.list.execute(req);
  }
}
