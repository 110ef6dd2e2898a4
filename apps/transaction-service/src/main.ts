import { runService } from '@payments/service-host';
import { TransactionServiceModule } from './app.module';
import { TransactionServiceConfig } from './config/transaction.config';
import { migrations } from './migrations';

void runService({
  name: 'transaction-service',
  config: TransactionServiceConfig,
  migrations,
  module: TransactionServiceModule,
});
