import { RpcController } from '@payments/platform';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RpcPatterns, type InitializeTransactionBody, type RpcRequest, type VerifyTransactionBody } from '@payments/contracts';
import { InitializeTransactionUseCase } from './usecases/initialize-transaction.usecase';
import { VerifyTransactionUseCase } from './usecases/verify-transaction.usecase';

@RpcController()
export class TransactionsRpcController {
  constructor(
    private readonly initialize: InitializeTransactionUseCase,
    private readonly verify: VerifyTransactionUseCase,
  ) {}

  @MessagePattern(RpcPatterns.TransactionsInitialize)
  onInitialize(@Payload() req: RpcRequest<InitializeTransactionBody>) {
    return this.initialize.execute(req);
  }

  @MessagePattern(RpcPatterns.TransactionsVerify)
  onVerify(@Payload() req: RpcRequest<VerifyTransactionBody>) {
    return this.verify.execute(req);
  }
}
