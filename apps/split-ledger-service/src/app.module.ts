import { Module } from '@nestjs/common';
import { pingController } from '@payments/platform';
import { LedgerTransactionsModule } from './transactions/transactions.module';

@Module({ imports: [LedgerTransactionsModule], controllers: [pingController('split-ledger-service')] })
export class SplitLedgerModule {}
