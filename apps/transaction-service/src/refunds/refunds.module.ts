import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { StoresModule } from '../stores.module';
import { RefundsAdminRpcController } from './refunds-admin.rpc-controller';
import { RefundsRpcController } from './refunds.rpc-controller';
import { CreateRefundUseCase } from './usecases/create-refund.usecase';
import { GetRefundUseCase } from './usecases/get-refund.usecase';
import { ListRefundsUseCase } from './usecases/list-refunds.usecase';
import { ResolveRefundUseCase } from './usecases/resolve-refund.usecase';

/** Refunds: create (sandbox, or at the provider), get, list; an operator's resolution of one stuck at its provider. */
@Module({
  imports: [StoresModule, ConnectorsModule],
  controllers: [RefundsRpcController, RefundsAdminRpcController],
  providers: [CreateRefundUseCase, GetRefundUseCase, ListRefundsUseCase, ResolveRefundUseCase],
})
export class RefundsModule {}
