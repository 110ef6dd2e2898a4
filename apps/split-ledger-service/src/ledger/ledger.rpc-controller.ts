import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  LedgerRpcPatterns,
  type DailyTotalsBody,
  type LedgerOfTransactionBody,
  type ListLedgerBody,
  type RpcRequest,
} from '@payments/contracts';
import { RpcController } from '@payments/platform';
import { GetDailyTotalsUseCase } from './usecases/get-daily-totals.usecase';
import { ListLedgerEntriesOfTransactionUseCase } from './usecases/list-ledger-entries-of-transaction.usecase';
import { GetLedgerSummaryUseCase } from './usecases/get-ledger-summary.usecase';
import { ListLedgerEntriesUseCase } from './usecases/list-ledger-entries.usecase';

@RpcController()
export class LedgerRpcController {
  constructor(
    private readonly list: ListLedgerEntriesUseCase,
    private readonly summary: GetLedgerSummaryUseCase,
    private readonly ofTransaction: ListLedgerEntriesOfTransactionUseCase,
    private readonly dailyTotals: GetDailyTotalsUseCase,
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
