import { MessagePattern, Payload } from '@nestjs/microservices';
import { ReconcileAdminRpcPatterns, type ReconcilePageBody } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { ReconcileTransactionsUseCase } from './usecases/reconcile-transactions.usecase';

/** Operator patterns (`admin.*`): reached only through the gateway's admin API. */
@RpcController()
export class ReconcileRpcController {
  constructor(private readonly transactions: ReconcileTransactionsUseCase) {}

  @MessagePattern(ReconcileAdminRpcPatterns.Transactions)
  onTransactions(@Payload() req: { body: ReconcilePageBody }) {
    return this.transactions.execute(req.body);
  }
}
