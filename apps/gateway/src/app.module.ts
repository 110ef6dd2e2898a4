import { Module } from '@nestjs/common';
import { PublicHealthModule } from '@payments/platform';
import { AuthModule } from './auth/auth.module';
import { AdminController } from './businesses/admin.controller';
import { CallbacksController } from './callbacks/callbacks.controller';
import { EventsController } from './events/events.controller';
import { WebhooksAdminController } from './callbacks/webhooks-admin.controller';
import { ReconcileAdminController } from './reconcile/reconcile-admin.controller';
import { CheckoutController } from './checkout/checkout.controller';
import { DashboardModule } from './dashboard/dashboard.module';
import { ConnectionsModule } from './connections/connections.module';
import { LinksController } from './links/links.controller';
import { ProviderNotificationsController } from './provider-notifications/provider-notifications.controller';
import { ProviderReturnsController } from './provider-notifications/provider-returns.controller';
import { RefundsAdminController } from './refunds/refunds-admin.controller';
import { SettingsController } from './businesses/settings.controller';
import { RpcModule } from './rpc/rpc.module';
import { SplitsModule } from './splits/splits.module';
import { TransactionsController } from './transactions/transactions.controller';

@Module({
  imports: [PublicHealthModule, RpcModule, AuthModule, SplitsModule, ConnectionsModule, DashboardModule],
  controllers: [
    AdminController,
    TransactionsController,
    LinksController,
    CheckoutController,
    CallbacksController,
    EventsController,
    WebhooksAdminController,
    ReconcileAdminController,
    SettingsController,
    ProviderNotificationsController,
    ProviderReturnsController,
    RefundsAdminController,
  ],
})
export class GatewayModule {}
