import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  LedgerRpcPatterns,
  type CreateSplitConfigBody,
  type ListSplitConfigsBody,
  type RpcRequest,
  type SplitConfigRefBody,
  type UpdateSplitConfigBody,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { CreateSplitConfigUseCase } from './usecases/create-split-config.usecase';
import { DeactivateSplitConfigUseCase } from './usecases/deactivate-split-config.usecase';
import { ListSplitConfigsUseCase } from './usecases/list-split-configs.usecase';
import { UpdateSplitConfigUseCase } from './usecases/update-split-config.usecase';

/** Thin RPC handlers: decode, call the use case; RpcController (rpcReply) maps results and refusals. */
@RpcController()
export class SplitsRpcController {
  constructor(
    private readonly create: CreateSplitConfigUseCase,
    private readonly list: ListSplitConfigsUseCase,
    private readonly update: UpdateSplitConfigUseCase,
    private readonly deactivate: DeactivateSplitConfigUseCase,
  ) {}

  @MessagePattern(LedgerRpcPatterns.SplitConfigsCreate)
  onCreate(@Payload() req: RpcRequest<CreateSplitConfigBody>) {
    return this.create.execute(req);
  }

  @MessagePattern(LedgerRpcPatterns.SplitConfigsList)
  onList(@Payload() req: RpcRequest<ListSplitConfigsBody>) {
    return this.list.execute(req);
  }

  @MessagePattern(LedgerRpcPatterns.SplitConfigsUpdate)
  onUpdate(@Payload() req: RpcRequest<UpdateSplitConfigBody>) {
    return this.update.execute(req);
  }

  @MessagePattern(LedgerRpcPatterns.SplitConfigsDeactivate)
  onDeactivate(@Payload() req: RpcRequest<SplitConfigRefBody>) {
    return this.deactivate.execute(req);
  }
}
