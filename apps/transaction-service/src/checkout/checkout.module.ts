import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../connectors/connectors.module';
import { StoresModule } from '../stores.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { CheckoutRpcController } from './checkout.rpc-controller';
import { GetCheckoutUseCase } from './usecases/get-checkout.usecase';
import { PayCheckoutUseCase } from './usecases/pay-checkout.usecase';

/** The hosted checkout page's reads and payments (a transaction's chk_… or a payment link's plink_…). */
@Module({
  imports: [StoresModule, ConnectorsModule, TransactionsModule],
  controllers: [CheckoutRpcController],
  providers: [GetCheckoutUseCase, PayCheckoutUseCase],
})
export class CheckoutModule {}
