import { Module } from '@nestjs/common';
import { ConnectionsController } from './connections.controller';

/**
 * Provider connections (/v1/connections), served by transaction-service over RPC, which keeps the
 * credentials encrypted. Guards and the RPC clients come from the global AuthModule and RpcModule.
 */
@Module({
  controllers: [ConnectionsController],
})
export class ConnectionsModule {}
