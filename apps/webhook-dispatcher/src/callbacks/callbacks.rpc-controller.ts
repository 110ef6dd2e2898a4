import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  WebhookRpcPatterns,
  type CallbackIdBody,
  type CreateCallbackBody,
  type ListCallbacksBody,
  type RpcRequest,
  type UpdateCallbackBody,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { CreateCallbackUseCase } from './usecases/create-callback.usecase';
import { DeleteCallbackUseCase } from './usecases/delete-callback.usecase';
import { GetCallbackUseCase } from './usecases/get-callback.usecase';
import { ListCallbacksUseCase } from './usecases/list-callbacks.usecase';
import { RevealSecretUseCase } from './usecases/reveal-secret.usecase';
import { RollSecretUseCase } from './usecases/roll-secret.usecase';
import { TestPingUseCase } from './usecases/test-ping.usecase';
import { UpdateCallbackUseCase } from './usecases/update-callback.usecase';

/** Every `callbacks.*` pattern; each handler calls one use case, scoped to the caller's business and mode. */
@RpcController()
export class CallbacksRpcController {
  constructor(
    private readonly createOne: CreateCallbackUseCase,
    private readonly listAll: ListCallbacksUseCase,
    private readonly getOne: GetCallbackUseCase,
    private readonly updateOne: UpdateCallbackUseCase,
    private readonly deleteOne: DeleteCallbackUseCase,
    private readonly revealSecret: RevealSecretUseCase,
    private readonly rollSecret: RollSecretUseCase,
    private readonly ping: TestPingUseCase,
  ) {}

  @MessagePattern(WebhookRpcPatterns.CallbacksCreate)
  create(@Payload() req: RpcRequest<CreateCallbackBody>) {
    return this.createOne.execute(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksList)
  list(@Payload() req: RpcRequest<ListCallbacksBody>) {
    return this.listAll.execute(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksGet)
  get(@Payload() req: RpcRequest<CallbackIdBody>) {
    return this.getOne.execute(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksUpdate)
  update(@Payload() req: RpcRequest<UpdateCallbackBody>) {
    return this.updateOne.execute(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksDelete)
  async remove(@Payload() req: RpcRequest<CallbackIdBody>) {
    await this.deleteOne.execute(req);
    return { deleted: true };
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksSecret)
  secret(@Payload() req: RpcRequest<CallbackIdBody>) {
    return this.revealSecret.execute(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksRollSecret)
  roll(@Payload() req: RpcRequest<CallbackIdBody>) {
    return this.rollSecret.execute(req);
  }

  @MessagePattern(WebhookRpcPatterns.CallbacksTest)
  test(@Payload() req: RpcRequest<CallbackIdBody>) {
    return this.ping.execute(req);
  }
}
