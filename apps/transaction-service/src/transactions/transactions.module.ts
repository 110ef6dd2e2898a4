import { Module } from '@nestjs/common';
import { GetCheckoutUseCase, PayCheckoutUseCase } from '../checkout/checkout.usecases';
import { LinkStore } from '../links/link-store';
import { LinksRpcController } from '../links/links.rpc-controller';
import { CreateLinkUseCase } from '../links/usecases/create-link.usecase';
import { ManageLinksUseCase } from '../links/usecases/manage-links.usecase';
import { RefundStore } from '../refunds/refund-store';
import { CreateRefundUseCase } from '../refunds/usecases/create-refund.usecase';
import { GetRefundUseCase, ListRefundsUseCase } from '../refunds/usecases/get-refund.usecase';
import { FeeSchedule } from './fee-schedule';
import { PAYMENT_PROVIDERS, ProviderRegistry } from './providers/payment-provider';
import { SandboxProvider } from './sandbox/sandbox-provider';
import { TransactionScheduler } from './sandbox/transaction-scheduler';
import { TransactionQueries } from './transaction-queries';
import { TransactionInsertBatch } from './transaction-insert-batch';
import { TransactionStore } from './transaction-store';
import { ReconcileRpcController, ReconcileTransactionsUseCase } from './reconcile.rpc-controller';
import { TransactionsRpcController } from './transactions.rpc-controller';
import { InitializeTransactionUseCase } from './usecases/initialize-transaction.usecase';
import { FetchTransactionUseCase, ListTransactionsUseCase } from './usecases/list-transactions.usecase';
import { VerifyTransactionUseCase } from './usecases/verify-transaction.usecase';

@Module({
  controllers: [TransactionsRpcController, LinksRpcController, ReconcileRpcController],
  providers: [
    TransactionStore,
    TransactionInsertBatch,
    TransactionQueries,
    RefundStore,
    LinkStore,
    FeeSchedule,
    SandboxProvider,
    // Live adapters register here, one per payment_method_code; none ships yet.
    { provide: PAYMENT_PROVIDERS, useValue: [] },
    ProviderRegistry,
    TransactionScheduler,
    InitializeTransactionUseCase,
    VerifyTransactionUseCase,
    ListTransactionsUseCase,
    FetchTransactionUseCase,
    CreateRefundUseCase,
    GetRefundUseCase,
    ListRefundsUseCase,
    CreateLinkUseCase,
    ManageLinksUseCase,
    GetCheckoutUseCase,
    PayCheckoutUseCase,
    ReconcileTransactionsUseCase,
  ],
})
export class TransactionsModule {}
