import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  RpcPatterns,
  type CheckoutGetBody,
  type CheckoutPayBody,
  type CheckoutRpcRequest,
  type CreateLinkBody,
  type CreateRefundBody,
  type FetchTransactionBody,
  type GetRefundBody,
  type ListRefundsBody,
  type InitializeTransactionBody,
  type ListTransactionsBody,
  type RpcRequest,
  type VerifyTransactionBody,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { GetCheckoutUseCase, PayCheckoutUseCase } from '../checkout/checkout.usecases';
import { CreateLinkUseCase } from '../links/usecases/create-link.usecase';
import { CreateRefundUseCase } from '../refunds/usecases/create-refund.usecase';
import { GetRefundUseCase, ListRefundsUseCase } from '../refunds/usecases/get-refund.usecase';
import { InitializeTransactionUseCase } from './usecases/initialize-transaction.usecase';
import { FetchTransactionUseCase, ListTransactionsUseCase } from './usecases/list-transactions.usecase';
import { VerifyTransactionUseCase } from './usecases/verify-transaction.usecase';

/** Thin RPC handlers: decode, call the use case; RpcController (rpcReply) maps results and refusals. */
@RpcController()
export class TransactionsRpcController {
  constructor(
    private readonly initialize: InitializeTransactionUseCase,
    private readonly verify: VerifyTransactionUseCase,
    private readonly list: ListTransactionsUseCase,
    private readonly fetch: FetchTransactionUseCase,
    private readonly createRefund: CreateRefundUseCase,
    private readonly getRefund: GetRefundUseCase,
    private readonly listRefunds: ListRefundsUseCase,
    private readonly createLink: CreateLinkUseCase,
    private readonly getCheckout: GetCheckoutUseCase,
    private readonly payCheckout: PayCheckoutUseCase,
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

  @MessagePattern(RpcPatterns.RefundsCreate)
  onCreateRefund(@Payload() req: RpcRequest<CreateRefundBody>) {
    return this.createRefund.execute(req);
  }

  @MessagePattern(RpcPatterns.RefundsGet)
  onGetRefund(@Payload() req: RpcRequest<GetRefundBody>) {
    return this.getRefund.execute(req);
  }

  @MessagePattern(RpcPatterns.RefundsList)
  onListRefunds(@Payload() req: RpcRequest<ListRefundsBody>) {
    return this.listRefunds.execute(req);
  }

  @MessagePattern(RpcPatterns.LinksCreate)
  onCreateLink(@Payload() req: RpcRequest<CreateLinkBody>) {
    return this.createLink.execute(req);
  }

  @MessagePattern(RpcPatterns.CheckoutGet)
  onGetCheckout(@Payload() req: CheckoutRpcRequest<CheckoutGetBody>) {
    return this.getCheckout.execute(req);
  }

  @MessagePattern(RpcPatterns.CheckoutPay)
  onPayCheckout(@Payload() req: CheckoutRpcRequest<CheckoutPayBody>) {
    return this.payCheckout.execute(req);
  }
}
