import { ConsumerGroups, Topics } from '@payments/contracts';
import { InboxEntities } from '@payments/messaging';
import { runService } from '@payments/service-host';
import { WebhookDispatcherModule } from './app.module';
import { WebhookDispatcherConfig } from './config/webhook.config';
import { DeliveryQueue } from './delivery/delivery-queue';
import { WebhookEventsHandler } from './events/transaction-events.handler';
import { WebhookEventEntity } from './events/webhook-event.entity';
import { migrations } from './migrations';

void runService({
  name: 'webhook-dispatcher',
  config: WebhookDispatcherConfig,
  entities: [WebhookEventEntity, ...InboxEntities],
  migrations,
  module: WebhookDispatcherModule,
  usesRedis: true,
  consumers: (app) => {
    const events = app.get(WebhookEventsHandler);
    const queue = app.get(DeliveryQueue);
    return [
      {
        group: ConsumerGroups.WebhookDispatcher,
        handlers: {
          [Topics.TransactionStatusChanged]: (event, m) => events.onTransaction(event, m),
          [Topics.RefundStatusChanged]: (event, m) => events.onRefund(event, m),
          [Topics.SettlementInvoiceChanged]: (event, m) => events.onInvoice(event, m),
        },
        // New deliveries go to the queue as soon as their rows are committed, not at the next poll.
        afterCommit: () => queue.wake(),
      },
    ];
  },
});
