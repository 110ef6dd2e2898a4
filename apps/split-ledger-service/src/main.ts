import { ConsumerGroups, Topics } from '@payments/contracts';
import { InboxEntities } from '@payments/messaging';
import { runService } from '@payments/service-host';
import { SplitLedgerModule } from './app.module';
import { SplitLedgerConfig } from './config/split-ledger.config';
import { migrations } from './migrations';
import { LedgerTransactionEntity } from './transactions/ledger-transaction.entity';
import { TransactionStatusHandler } from './transactions/transaction-status.handler';

void runService({
  name: 'split-ledger-service',
  config: SplitLedgerConfig,
  entities: [LedgerTransactionEntity, ...InboxEntities],
  migrations,
  module: SplitLedgerModule,
  usesRedis: true,
  consumers: (app) => {
    const transactions = app.get(TransactionStatusHandler);
    return [
      {
        group: ConsumerGroups.SplitLedger,
        handlers: { [Topics.TransactionStatusChanged]: (event, m) => transactions.handle(event, m) },
      },
    ];
  },
});
