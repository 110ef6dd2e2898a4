import { ConsumerGroups, Topics } from '@payments/contracts';
import { InboxEntities } from '@payments/messaging';
import { runService } from '@payments/service-host';
import { WebhookDispatcherModule } from './app.module';
import { WebhookDispatcherConfig } from './config/webhook.config';
import { TransactionEventsHandler } from './events/transaction-events.handler';
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
    const transactions = app.get(TransactionEventsHandler);
    return [
      {
        group: ConsumerGroups.WebhookDispatcher,
        handlers: { [Topics.TransactionStatusChanged]: (event, m) => transactions.handle(event, m) },
      },
    ];
  },
});
