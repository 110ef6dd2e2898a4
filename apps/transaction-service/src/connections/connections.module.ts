import { Module } from '@nestjs/common';
import { TransactionServiceConfig } from '../config/transaction.config';
import { ConnectionKeyRotation } from './connection-key-rotation';
import { ConnectionStore } from './connection-store';
import { ConnectionsRpcController } from './connections.rpc-controller';
import { CredentialsCipher } from './credentials-cipher';
import { DeleteConnectionUseCase } from './usecases/delete-connection.usecase';
import { GetConnectionUseCase } from './usecases/get-connection.usecase';
import { ListConnectionsUseCase } from './usecases/list-connections.usecase';
import { PutConnectionUseCase } from './usecases/put-connection.usecase';

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
    PutConnectionUseCase,
    ListConnectionsUseCase,
    GetConnectionUseCase,
    DeleteConnectionUseCase,
    ConnectionKeyRotation,
  ],
  exports: [ConnectionStore],
})
export class ConnectionsModule {}
