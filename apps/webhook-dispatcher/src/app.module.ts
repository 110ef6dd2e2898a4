import { Module } from '@nestjs/common';
import { pingController } from '@payments/platform';
import { CallbacksModule } from './callbacks/callbacks.module';
import { DeliveryModule } from './delivery/delivery.module';
import { EventsModule } from './events/events.module';

/** One module per domain folder, each with its own RPC controllers; the stores sit below them (stores.module.ts). */
@Module({
  imports: [CallbacksModule, DeliveryModule, EventsModule],
  controllers: [pingController('webhook-dispatcher')],
})
export class WebhookDispatcherModule {}
