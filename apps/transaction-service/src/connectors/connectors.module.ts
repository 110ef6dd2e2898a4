import { Module } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module';
import { StoresModule } from '../stores.module';
import { ConnectorRegistry } from './connector-registry';
import { LivePayments } from './live-payments';
import { ProviderCredentials } from './provider-credentials';
import { ProviderNotifications } from './provider-notifications';
import { ProviderNotificationsRpcController } from './provider-notifications.rpc-controller';
import { ProviderPoller } from './provider-poller';
import { ProviderRefunds } from './provider-refunds';
import { ProviderStatements } from './provider-statements';

/**
 * Live payments and refunds through the providers' connectors, with the businesses' connections:
 * starting them, their notifications and returns, and the poller that checks what is still open.
 */
@Module({
  imports: [StoresModule, ConnectionsModule],
  controllers: [ProviderNotificationsRpcController],
  providers: [
    ConnectorRegistry,
    ProviderCredentials,
    LivePayments,
    ProviderStatements,
    ProviderPoller,
    ProviderRefunds,
    ProviderNotifications,
  ],
  exports: [LivePayments, ProviderRefunds],
})
export class ConnectorsModule {}
