import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  RpcPatterns,
  type CreateLinkBody,
  type LinkIdBody,
  type ListLinksBody,
  type RpcRequest,
  type UpdateLinkBody,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { CreateLinkUseCase } from './usecases/create-link.usecase';
import { DeactivateLinkUseCase } from './usecases/deactivate-link.usecase';
import { GetLinkUseCase } from './usecases/get-link.usecase';
import { ListLinksUseCase } from './usecases/list-links.usecase';
import { UpdateLinkUseCase } from './usecases/update-link.usecase';

/** Thin RPC handlers: decode, call the use case; RpcController (rpcReply) maps results and refusals. */
@RpcController()
export class LinksRpcController {
  constructor(
    private readonly create: CreateLinkUseCase,
    private readonly list: ListLinksUseCase,
    private readonly get: GetLinkUseCase,
    private readonly update: UpdateLinkUseCase,
    private readonly deactivate: DeactivateLinkUseCase,
  ) {}

  @MessagePattern(RpcPatterns.LinksCreate)
  onCreate(@Payload() req: RpcRequest<CreateLinkBody>) {
    return this.create.execute(req);
  }

  @MessagePattern(RpcPatterns.LinksList)
  onList(@Payload() req: RpcRequest<ListLinksBody>) {
    return this.list.execute(req);
  }

  @MessagePattern(RpcPatterns.LinksGet)
  onGet(@Payload() req: RpcRequest<LinkIdBody>) {
    return this.get.execute(req);
  }

  @MessagePattern(RpcPatterns.LinksUpdate)
  onUpdate(@Payload() req: RpcRequest<UpdateLinkBody>) {
    return this.update.execute(req);
  }

  @MessagePattern(RpcPatterns.LinksDeactivate)
  onDeactivate(@Payload() req: RpcRequest<LinkIdBody>) {
    return this.deactivate.execute(req);
  }
}
