import { MessagePattern, Payload } from '@nestjs/microservices';
import { RpcPatterns, type ConnectionProviderBody, type PutConnectionBody, type RpcRequest } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { DeleteConnectionUseCase } from './usecases/delete-connection.usecase';
import { GetConnectionUseCase } from './usecases/get-connection.usecase';
import { ListConnectionsUseCase } from './usecases/list-connections.usecase';
import { PutConnectionUseCase } from './usecases/put-connection.usecase';

/** A business's own payment-provider accounts (credentials in, never out). */
@RpcController()
export class ConnectionsRpcController {
  constructor(
    private readonly putOne: PutConnectionUseCase,
    private readonly listAll: ListConnectionsUseCase,
    private readonly getOne: GetConnectionUseCase,
    private readonly deleteOne: DeleteConnectionUseCase,
  ) {}

  @MessagePattern(RpcPatterns.ConnectionsPut)
  onPut(@Payload() req: RpcRequest<PutConnectionBody>) {
    return this.putOne.execute(req);
  }

  @MessagePattern(RpcPatterns.ConnectionsList)
  onList(@Payload() req: RpcRequest<unknown>) {
    return this.listAll.execute(req);
  }

  @MessagePattern(RpcPatterns.ConnectionsGet)
  onGet(@Payload() req: RpcRequest<ConnectionProviderBody>) {
    return this.getOne.execute(req);
  }

  @MessagePattern(RpcPatterns.ConnectionsDelete)
  onDelete(@Payload() req: RpcRequest<ConnectionProviderBody>) {
    return this.deleteOne.execute(req);
  }
}
