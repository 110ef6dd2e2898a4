import { MessagePattern, Payload } from '@nestjs/microservices';
import { LedgerRpcPatterns, type DailyTotalsBody, type LedgerOfTransactionBody, type ListLedgerBody, type RpcRequest } from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { DailyTotalsUseCase } from './usecases/daily-totals.usecase';
import { LedgerOfTransactionUseCase } from './usecases/ledger-of-transaction.usecase';
import { LedgerSummaryUseCase } from './usecases/ledger-summary.usecase';
import { ListLedgerEntriesUseCase } from './usecases/list-ledger-entries.usecase';

@RpcController()
export class LedgerRpcController {
  constructor(
    private readonly list: ListLedgerEntriesUseCase,
    private readonly summary: LedgerSummaryUseCase,
    private readonly ofTransaction: LedgerOfTransactionUseCase,
    private readonly dailyTotals: DailyTotalsUseCase,
  ) {}

  @MessagePattern(LedgerRpcPatterns.LedgerList)
  onList(@Payload() req: RpcRequest<ListLedgerBody>) {
    return this.list.execute(req);
  }

  @MessagePattern(LedgerRpcPatterns.LedgerSummary)
  onSummary(@Payload() req: RpcRequest<unknown>) {
    return this.summary.execute(req);
  }

  @MessagePattern(LedgerRpcPatterns.LedgerOfTransaction)
  onOfTransaction(@Payload() req: RpcRequest<LedgerOfTransactionBody>) {
    return this.ofTransaction.execute(req);
  }

  @MessagePattern(LedgerRpcPatterns.LedgerDailyTotals)
  onDailyTotals(@Payload() req: RpcRequest<DailyTotalsBody>) {
    return this.dailyTotals.execute(req);
  }
}
