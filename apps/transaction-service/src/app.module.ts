import { Module } from '@nestjs/common';
import { pingController } from '@payments/platform';
import { ConnectionsModule } from './connections/connections.module';
import { TransactionsModule } from './transactions/transactions.module';

@Module({ imports: [TransactionsModule, ConnectionsModule], controllers: [pingController('transaction-service')] })
export class TransactionServiceModule {}
