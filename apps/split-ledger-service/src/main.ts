import { ConsumerGroups, EventTypes, Topics } from '@payments/contracts';
import { batchHandlerOf, handlerOf } from '@payments/messaging';
import { runService } from '@payments/service-host';
import { SplitLedgerModule } from './app.module';
import { SplitLedgerConfig } from './config/split-ledger.config';
import { RefundStatusHandler } from './transactions/refund-status.handler';
import { migrations } from './migrations';
import { TransactionStatusHandler } from './transactions/transaction-status.handler';

void runService({
  name: 'split-ledger-service',
  config: SplitLedgerConfig,
  migrations,
  module: SplitLedgerModule,
  usesRedis: true,
  consumers: (app) => {
    const transactions = app.get(TransactionStatusHandler);
    const refunds = app.get(RefundStatusHandler);
    const config = app.get(SplitLedgerConfig);
    return [
      {
        group: ConsumerGroups.SplitLedger,
        handlers: {
          [Topics.TransactionStatusChanged]: handlerOf(EventTypes.TransactionStatusChanged, (event, m) =>
            transactions.handle(event, m),
          ),
          [Topics.RefundStatusChanged]: handlerOf(EventTypes.RefundStatusChanged, (event, m) =>
            refunds.handle(event, m),
          ),
        },
        batchHandlers: {
          [Topics.TransactionStatusChanged]: batchHandlerOf(EventTypes.TransactionStatusChanged, (events, m) =>
            transactions.handleBatch(events, m),
          ),
        },
        fetch: { minBytes: config.LEDGER_FETCH_MIN_BYTES, maxWaitMs: config.LEDGER_FETCH_MAX_WAIT_MS },
      },
    ];
  },
});
