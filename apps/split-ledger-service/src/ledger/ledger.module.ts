import { Module } from '@nestjs/common';
import { SplitsModule } from '../splits/splits.module';
import { LedgerQueries } from './ledger-queries';
import { LedgerStore } from './ledger-store';
import { LedgerRpcController } from './ledger.rpc-controller';
import { LedgerReconcileRpcController, ReconcileLedgerUseCase } from './reconcile.rpc-controller';
import { RefundStatusHandler } from './refund-status.handler';
import { ApplySplitsUseCase } from './usecases/apply-splits.usecase';
import { LedgerSummaryUseCase } from './usecases/ledger-summary.usecase';
import { ListLedgerEntriesUseCase } from './usecases/list-ledger-entries.usecase';
import { DailyTotalsUseCase } from './usecases/daily-totals.usecase';
import { LedgerOfTransactionUseCase } from './usecases/ledger-of-transaction.usecase';
import { TransactionCopyStore } from './transaction-copy-store';
import { ReverseRefundedSplitsUseCase } from './usecases/reverse-refunded-splits.usecase';

@Module({
  imports: [SplitsModule],
  controllers: [LedgerRpcController, LedgerReconcileRpcController],
  providers: [LedgerStore, LedgerQueries, TransactionCopyStore, ApplySplitsUseCase, ReverseRefundedSplitsUseCase, RefundStatusHandler, ListLedgerEntriesUseCase, LedgerSummaryUseCase, LedgerOfTransactionUseCase, DailyTotalsUseCase, ReconcileLedgerUseCase],
  exports: [ApplySplitsUseCase, RefundStatusHandler, LedgerStore, LedgerQueries, TransactionCopyStore],
})
export class LedgerModule {}
