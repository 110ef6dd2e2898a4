import { runService } from '@payments/service-host';
import { AppModuleEntities } from './entities';
import { TransactionServiceModule } from './app.module';
import { TransactionServiceConfig } from './config/transaction.config';
import { migrations } from './migrations';

void runService({
  name: 'transaction-service',
  config: TransactionServiceConfig,
  entities: AppModuleEntities,
  migrations,
  module: TransactionServiceModule,
});
