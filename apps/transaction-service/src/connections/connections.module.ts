import { Module } from '@nestjs/common';
import { TransactionServiceConfig } from '../config/transaction.config';
import { ConnectionKeyRotation } from './connection-key-rotation';
import { ConnectionStore } from './connection-store';
import { ConnectionsRpcController } from './connections.rpc-controller';
import { CredentialsCipher } from './credentials-cipher';
import { ManageConnectionsUseCase } from './usecases/manage-connections.usecase';

/**
 * Provider connections: the businesses' own payment-provider credentials, encrypted at rest.
 * Exports ConnectionStore, whose `credentialsFor` the provider adapters use to call a provider.
 */
@Module({
  controllers: [ConnectionsRpcController],
  providers: [
    {
      provide: CredentialsCipher,
      useFactory: (config: TransactionServiceConfig) => CredentialsCipher.fromConfig(config),
      inject: [TransactionServiceConfig],
    },
    ConnectionStore,
    ManageConnectionsUseCase,
    ConnectionKeyRotation,
  ],
  exports: [ConnectionStore],
})
export class ConnectionsModule {}
