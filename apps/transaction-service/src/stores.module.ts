import { Module } from '@nestjs/common';
import { ProviderPaymentStore } from './connectors/provider-payment-store';
import { ProviderRefundStore } from './connectors/provider-refund-store';
import { LinkStore } from './links/link-store';
import { RefundStore } from './refunds/refund-store';
import { TransactionQueries } from './transactions/transaction-queries';
import { TransactionStore } from './transactions/transaction-store';

const STORES = [
  TransactionStore,
  TransactionQueries,
  RefundStore,
  LinkStore,
  ProviderPaymentStore,
  ProviderRefundStore,
];

/**
 * The service's stores (its only SQL; table ownership is pinned by
 * libs/database/src/table-ownership.spec.ts), one layer below every domain module so the domains
 * can read each other's rows without importing each other's modules in a cycle.
 */
@Module({ providers: STORES, exports: STORES })
export class StoresModule {}
