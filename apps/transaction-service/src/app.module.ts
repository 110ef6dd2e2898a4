import { Module } from '@nestjs/common';
import { pingController } from '@payments/platform';
import { CheckoutModule } from './checkout/checkout.module';
import { ConnectionsModule } from './connections/connections.module';
import { ConnectorsModule } from './connectors/connectors.module';
import { LinksModule } from './links/links.module';
import { RefundsModule } from './refunds/refunds.module';
import { TransactionsModule } from './transactions/transactions.module';

/** One module per domain folder, each with its own RPC controllers; the stores sit below them (stores.module.ts). */
@Module({
  imports: [TransactionsModule, RefundsModule, LinksModule, CheckoutModule, ConnectorsModule, ConnectionsModule],
  controllers: [pingController('transaction-service')],
})
export class TransactionServiceModule {}
