import { Module } from '@nestjs/common';
import { HealthModule } from '@payments/platform';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AdminGuard } from './auth/admin.guard';
import { ApiKeysService } from './auth/api-keys.service';
import { AdminController } from './businesses/admin.controller';
import { BusinessesService } from './businesses/businesses.service';
import { CallbacksController } from './callbacks/callbacks.controller';
import { CheckoutController } from './checkout/checkout.controller';
import { LinksController } from './links/links.controller';
import { RpcModule } from './rpc/rpc.module';
import { TransactionsController } from './transactions/transactions.controller';

@Module({
  imports: [HealthModule, RpcModule],
  controllers: [AdminController, TransactionsController, LinksController, CheckoutController, CallbacksController],
  providers: [ApiKeysService, ApiKeyGuard, AdminGuard, BusinessesService],
})
export class GatewayModule {}
