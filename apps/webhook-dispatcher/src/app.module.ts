import { Module } from '@nestjs/common';
import { pingController } from '@payments/platform';
import { WebhookEventsModule } from './events/events.module';

@Module({ imports: [WebhookEventsModule], controllers: [pingController('webhook-dispatcher')] })
export class WebhookDispatcherModule {}
