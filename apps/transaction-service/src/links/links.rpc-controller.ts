import { MessagePattern, Payload } from '@nestjs/microservices';
import { RpcPatterns, type LinkIdBody, type ListLinksBody, type RpcRequest, type UpdateLinkBody } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { ManageLinksUseCase } from './usecases/manage-links.usecase';

/** Managing payment links; creating one stays with the transactions controller's other writes. */
@RpcController()
export class LinksRpcController {
  constructor(private readonly links: ManageLinksUseCase) {}

  @MessagePattern(RpcPatterns.LinksList)
  onList(@Payload() req: RpcRequest<ListLinksBody>) {
    return this.links.list(req);
  }

  @MessagePattern(RpcPatterns.LinksGet)
  onGet(@Payload() req: RpcRequest<LinkIdBody>) {
    return this.links.get(req);
  }

  @MessagePattern(RpcPatterns.LinksUpdate)
  onUpdate(@Payload() req: RpcRequest<UpdateLinkBody>) {
    return this.links.update(req);
  }

  @MessagePattern(RpcPatterns.LinksDeactivate)
  onDeactivate(@Payload() req: RpcRequest<LinkIdBody>) {
    return this.links.deactivate(req);
  }
}
