import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { TransactionStatusHandler } from './transaction-status.handler';

@Module({ imports: [LedgerModule], providers: [TransactionStatusHandler], exports: [TransactionStatusHandler] })
export class LedgerTransactionsModule {}
