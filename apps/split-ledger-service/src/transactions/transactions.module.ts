import { Module } from '@nestjs/common';
import { TransactionStatusHandler } from './transaction-status.handler';

@Module({ providers: [TransactionStatusHandler], exports: [TransactionStatusHandler] })
export class LedgerTransactionsModule {}
