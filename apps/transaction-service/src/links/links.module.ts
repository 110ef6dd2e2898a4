import { Module } from '@nestjs/common';
import { StoresModule } from '../stores.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { LinksRpcController } from './links.rpc-controller';
import { CreateLinkUseCase } from './usecases/create-link.usecase';
import { DeactivateLinkUseCase } from './usecases/deactivate-link.usecase';
import { GetLinkUseCase } from './usecases/get-link.usecase';
import { ListLinksUseCase } from './usecases/list-links.usecase';
import { UpdateLinkUseCase } from './usecases/update-link.usecase';

/** Payment links: create (priced with the transactions' fee schedule), list, get, update, deactivate. */
@Module({
  imports: [StoresModule, TransactionsModule],
  controllers: [LinksRpcController],
  providers: [CreateLinkUseCase, ListLinksUseCase, GetLinkUseCase, UpdateLinkUseCase, DeactivateLinkUseCase],
})
export class LinksModule {}
