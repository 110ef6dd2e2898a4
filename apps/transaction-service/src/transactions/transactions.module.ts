import { Module } from '@nestjs/common';
import { GetCheckoutUseCase, PayCheckoutUseCase } from '../checkout/checkout.usecases';
import { LinkStore } from '../links/link-store';
import { LinksRpcController } from '../links/links.rpc-controller';
import { CreateLinkUseCase } from '../links/usecases/create-link.usecase';
import { ManageLinksUseCase } from '../links/usecases/manage-links.usecase';
import { RefundStore } from '../refunds/refund-store';
import { CreateRefundUseCase } from '../refunds/usecases/create-refund.usecase';
import { ResolveRefundUseCase } from '../refunds/usecases/resolve-refund.usecase';
import { RefundsAdminRpcController } from '../refunds/refunds-admin.rpc-controller';
import { GetRefundUseCase, ListRefundsUseCase } from '../refunds/usecases/get-refund.usecase';
import { FeeSchedule } from './fee-schedule';
import { ConnectionsModule } from '../connections/connections.module';
import { ConnectorRegistry } from '../connectors/connector-registry';
import { LivePayments } from '../connectors/live-payments';
import { ProviderNotificationsRpcController } from '../connectors/provider-notifications.rpc-controller';
import { ProviderCredentials } from '../connectors/provider-credentials';
import { ProviderPaymentStore } from '../connectors/provider-payment-store';
import { ProviderPoller } from '../connectors/provider-poller';
import { ProviderNotifications } from '../connectors/provider-notifications';
import { ProviderRefundStore } from '../connectors/provider-refund-store';
import { ProviderRefunds } from '../connectors/provider-refunds';
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
  imports: [ConnectionsModule],
  controllers: [TransactionsRpcController, LinksRpcController, ReconcileRpcController, ProviderNotificationsRpcController, RefundsAdminRpcController],
  providers: [
    TransactionStore,
    TransactionInsertBatch,
    TransactionQueries,
    RefundStore,
    LinkStore,
    FeeSchedule,
    SandboxProvider,
    // Live payments through the providers' connectors (connectors/), with the businesses' connections.
    ConnectorRegistry,
    ProviderPaymentStore,
    ProviderCredentials,
    LivePayments,
    ProviderPoller,
    ProviderRefundStore,
    ProviderRefunds,
    ProviderNotifications,
    TransactionScheduler,
    InitializeTransactionUseCase,
    VerifyTransactionUseCase,
    ListTransactionsUseCase,
    FetchTransactionUseCase,
    CreateRefundUseCase,
    ResolveRefundUseCase,
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
