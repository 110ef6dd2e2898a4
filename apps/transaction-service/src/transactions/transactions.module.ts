import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { StoresModule } from '../stores.module';
import { FeeSchedule } from './fee-schedule';
import { ReconcileRpcController } from './reconcile.rpc-controller';
import { ReconcileTransactionsUseCase } from './usecases/reconcile-transactions.usecase';
import { SandboxProvider } from './sandbox/sandbox-provider';
import { TransactionScheduler } from './sandbox/transaction-scheduler';
import { TransactionInsertBatch } from './transaction-insert-batch';
import { TransactionsRpcController } from './transactions.rpc-controller';
import { TransactionViews } from './transaction-views';
import { FetchTransactionUseCase } from './usecases/fetch-transaction.usecase';
import { InitializeTransactionUseCase } from './usecases/initialize-transaction.usecase';
import { ListTransactionsUseCase } from './usecases/list-transactions.usecase';
import { VerifyTransactionUseCase } from './usecases/verify-transaction.usecase';

/** Transactions: initialize, verify, list, fetch; the sandbox's settlement and expiry; reconcile's reads. */
@Module({
  imports: [StoresModule, ConnectorsModule],
  controllers: [TransactionsRpcController, ReconcileRpcController],
  providers: [
    TransactionInsertBatch,
    TransactionViews,
    FeeSchedule,
    SandboxProvider,
    TransactionScheduler,
    InitializeTransactionUseCase,
    VerifyTransactionUseCase,
    ListTransactionsUseCase,
    FetchTransactionUseCase,
    ReconcileTransactionsUseCase,
  ],
  exports: [FeeSchedule, SandboxProvider],
})
export class TransactionsModule {}
