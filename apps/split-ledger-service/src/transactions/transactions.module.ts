import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { SplitsModule } from '../splits/splits.module';
import { RefundStatusHandler } from './refund-status.handler';
import { TransactionStatusHandler } from './transaction-status.handler';

/**
 * What the ledger does with transaction-service's events: keeps its copies of transactions and
 * refunds (and the daily totals), applies a success's splits and reverses a refund's share.
 */
@Module({
  imports: [LedgerModule, SplitsModule],
  providers: [TransactionStatusHandler, RefundStatusHandler],
  exports: [TransactionStatusHandler, RefundStatusHandler],
})
export class LedgerTransactionsModule {}
