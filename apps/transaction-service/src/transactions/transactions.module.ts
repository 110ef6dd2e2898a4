import { Module } from '@nestjs/common';
import { TransactionScheduler } from './sandbox/transaction-scheduler';
import { TransactionStore } from './transaction-store';
import { TransactionsRpcController } from './transactions.rpc-controller';
import { InitializeTransactionUseCase } from './usecases/initialize-transaction.usecase';
import { VerifyTransactionUseCase } from './usecases/verify-transaction.usecase';

@Module({
  controllers: [TransactionsRpcController],
  providers: [TransactionStore, InitializeTransactionUseCase, VerifyTransactionUseCase, TransactionScheduler],
})
export class TransactionsModule {}
