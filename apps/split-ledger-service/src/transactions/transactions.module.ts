import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { SplitsModule } from '../splits/splits.module';
import { TransactionStatusHandler } from './transaction-status.handler';

@Module({ imports: [LedgerModule, SplitsModule], providers: [TransactionStatusHandler], exports: [TransactionStatusHandler] })
export class LedgerTransactionsModule {}
