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
 * The service's stores (its only SQL; which store owns which table is pinned by
 * libs/database/src/table-ownership.spec.ts), shared by the domain modules. They live in their
 * domain's folder; this module only makes them one layer below every domain module, so that
 * transactions, refunds, connectors, links and checkout can read each other's rows without
 * importing each other's modules in a cycle.
 */
@Module({ providers: STORES, exports: STORES })
export class StoresModule {}
