import { Module } from '@nestjs/common';
import { pingController } from '@payments/platform';
import { TransactionsModule } from './transactions/transactions.module';

@Module({ imports: [TransactionsModule], controllers: [pingController('transaction-service')] })
export class TransactionServiceModule {}
