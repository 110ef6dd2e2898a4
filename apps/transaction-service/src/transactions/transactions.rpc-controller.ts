import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  RpcPatterns,
  type FetchTransactionBody,
  type InitializeTransactionBody,
  type ListTransactionsBody,
  type RpcRequest,
  type VerifyTransactionBody,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { FetchTransactionUseCase } from './usecases/fetch-transaction.usecase';
import { InitializeTransactionUseCase } from './usecases/initialize-transaction.usecase';
import { ListTransactionsUseCase } from './usecases/list-transactions.usecase';
import { VerifyTransactionUseCase } from './usecases/verify-transaction.usecase';

/** Thin RPC handlers: decode, call the use case; RpcController (rpcReply) maps results and refusals. */
@RpcController()
export class TransactionsRpcController {
  constructor(
    private readonly initialize: InitializeTransactionUseCase,
    private readonly verify: VerifyTransactionUseCase,
    private readonly list: ListTransactionsUseCase,
    private readonly fetch: FetchTransactionUseCase,
  ) {}

  @MessagePattern(RpcPatterns.TransactionsInitialize)
  onInitialize(@Payload() req: RpcRequest<InitializeTransactionBody>) {
    return this.initialize.execute(req);
  }

  @MessagePattern(RpcPatterns.TransactionsVerify)
  onVerify(@Payload() req: RpcRequest<VerifyTransactionBody>) {
    return this.verify.execute(req);
  }

  @MessagePattern(RpcPatterns.TransactionsList)
  onList(@Payload() req: RpcRequest<ListTransactionsBody>) {
    return this.list.execute(req);
  }

  @MessagePattern(RpcPatterns.TransactionsFetch)
  onFetch(@Payload() req: RpcRequest<FetchTransactionBody>) {
    return this.fetch.execute(req);
  }
}
