import { MessagePattern, Payload } from '@nestjs/microservices';
import { RpcPatterns, type ConnectionProviderBody, type PutConnectionBody, type RpcRequest } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { ManageConnectionsUseCase } from './usecases/manage-connections.usecase';

/** A business's own payment-provider accounts (credentials in, never out). */
@RpcController()
export class ConnectionsRpcController {
  constructor(private readonly connections: ManageConnectionsUseCase) {}

  @MessagePattern(RpcPatterns.ConnectionsPut)
  onPut(@Payload() req: RpcRequest<PutConnectionBody>) {
    return this.connections.put(req);
  }

  @MessagePattern(RpcPatterns.ConnectionsList)
  onList(@Payload() req: RpcRequest<unknown>) {
    return this.connections.list(req);
  }

  @MessagePattern(RpcPatterns.ConnectionsGet)
  onGet(@Payload() req: RpcRequest<ConnectionProviderBody>) {
    return this.connections.get(req);
  }

  @MessagePattern(RpcPatterns.ConnectionsDelete)
  onDelete(@Payload() req: RpcRequest<ConnectionProviderBody>) {
    return this.connections.remove(req);
  }
}
