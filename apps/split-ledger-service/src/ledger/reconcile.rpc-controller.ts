import { MessagePattern, Payload } from '@nestjs/microservices';
import { ReconcileAdminRpcPatterns, type ReconcileLedgerBody } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { ReconcileLedgerUseCase } from './usecases/reconcile-ledger.usecase';

/** Operator patterns (`admin.*`): reached only through the gateway's admin API. */
@RpcController()
export class LedgerReconcileRpcController {
  constructor(private readonly ledger: ReconcileLedgerUseCase) {}

  @MessagePattern(ReconcileAdminRpcPatterns.Ledger)
  onLedger(@Payload() req: { body: ReconcileLedgerBody }) {
    return this.ledger.execute(req.body);
  }
}
