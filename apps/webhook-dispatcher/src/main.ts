import { ConsumerGroups, EventTypes, Topics } from '@payments/contracts';
import { batchHandlerOf, handlerOf } from '@payments/messaging';
import { runService } from '@payments/service-host';
import { WebhookDispatcherModule } from './app.module';
import { WebhookDispatcherConfig } from './config/webhook.config';
import { WebhookEventsHandler } from './events/transaction-events.handler';
import { migrations } from './migrations';

void runService({
  name: 'webhook-dispatcher',
  config: WebhookDispatcherConfig,
  migrations,
  module: WebhookDispatcherModule,
  usesRedis: true,
  // Deliveries go to merchants through BullMQ; this service announces nothing on Kafka.
  publishesEvents: false,
  consumers: (app) => {
    const events = app.get(WebhookEventsHandler);
    return [
      {
        group: ConsumerGroups.WebhookDispatcher,
        // The fan-out counts each callback's claims in flight with a plain index scan (see CLAIM_MANY).
        transaction: { settings: { enable_bitmapscan: 'off' } },
        handlers: {
          [Topics.TransactionStatusChanged]: handlerOf(EventTypes.TransactionStatusChanged, (event, m) =>
            events.onTransactions([event], m),
          ),
          [Topics.RefundStatusChanged]: handlerOf(EventTypes.RefundStatusChanged, (event, m) =>
            events.onRefunds([event], m),
          ),
          [Topics.SettlementInvoiceChanged]: handlerOf(EventTypes.SettlementInvoiceChanged, (event, m) =>
            events.onInvoices([event], m),
          ),
        },
        batchHandlers: {
          [Topics.TransactionStatusChanged]: batchHandlerOf(EventTypes.TransactionStatusChanged, (batch, m, last) =>
            events.onTransactions(batch, m, last),
          ),
          [Topics.RefundStatusChanged]: batchHandlerOf(EventTypes.RefundStatusChanged, (batch, m, last) =>
            events.onRefunds(batch, m, last),
          ),
          [Topics.SettlementInvoiceChanged]: batchHandlerOf(EventTypes.SettlementInvoiceChanged, (batch, m, last) =>
            events.onInvoices(batch, m, last),
          ),
        },
      },
    ];
  },
});
