import { Module } from '@nestjs/common';
import { SplitsModule } from '../splits/splits.module';
import { LedgerQueries } from './ledger-queries';
import { LedgerStore } from './ledger-store';
import { LedgerRpcController } from './ledger.rpc-controller';
import { LedgerReconcileRpcController } from './reconcile.rpc-controller';
import { ReconcileLedgerUseCase } from './usecases/reconcile-ledger.usecase';
import { ApplySplitsUseCase } from './usecases/apply-splits.usecase';
import { GetLedgerSummaryUseCase } from './usecases/get-ledger-summary.usecase';
import { ListLedgerEntriesUseCase } from './usecases/list-ledger-entries.usecase';
import { DailyTotalsCompactor } from './daily-totals-compactor';
import { GetDailyTotalsUseCase } from './usecases/get-daily-totals.usecase';
import { ListLedgerEntriesOfTransactionUseCase } from './usecases/list-ledger-entries-of-transaction.usecase';
import { TransactionCopyStore } from './transaction-copy-store';
import { ReverseRefundedSplitsUseCase } from './usecases/reverse-refunded-splits.usecase';

@Module({
  imports: [SplitsModule],
  controllers: [LedgerRpcController, LedgerReconcileRpcController],
  providers: [
    LedgerStore,
    LedgerQueries,
    TransactionCopyStore,
    ApplySplitsUseCase,
    ReverseRefundedSplitsUseCase,
    ListLedgerEntriesUseCase,
    GetLedgerSummaryUseCase,
    ListLedgerEntriesOfTransactionUseCase,
    GetDailyTotalsUseCase,
    DailyTotalsCompactor,
    ReconcileLedgerUseCase,
  ],
  exports: [ApplySplitsUseCase, ReverseRefundedSplitsUseCase, LedgerStore, LedgerQueries, TransactionCopyStore],
})
export class LedgerModule {}
