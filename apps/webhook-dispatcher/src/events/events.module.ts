import { Module } from '@nestjs/common';
import { DeliveryModule } from '../delivery/delivery.module';
import { StoresModule } from '../stores.module';
import { EventPruner } from './event-pruner';
import { EventsRpcController } from './events.rpc-controller';
import { ReconcileWebhooksRpcController } from './reconcile.rpc-controller';
import { RecordedOrderGuard } from './recorded-order-guard';
import { WebhookEventsHandler } from './transaction-events.handler';
import { GetEventUseCase } from './usecases/get-event.usecase';
import { ListEventDeliveriesUseCase } from './usecases/list-event-deliveries.usecase';
import { ListEventsOfTransactionUseCase } from './usecases/list-events-of-transaction.usecase';
import { ListEventsUseCase } from './usecases/list-events.usecase';
import { ReconcileEventsUseCase } from './usecases/reconcile-events.usecase';
import { ReconcileTransactionsUseCase } from './usecases/reconcile-transactions.usecase';

/**
 * Webhook events: recorded from the Kafka events (WebhookEventsHandler, which hands their
 * deliveries to the delivery module's first attempts), pruned after retention, and read through
 * the events API.
 */
@Module({
  imports: [StoresModule, DeliveryModule],
  // Reconcile's pages of the recorded events live here (each transaction's latest, each event with
  // its callbacks); its page of the callbacks themselves is in the callbacks module.
  controllers: [EventsRpcController, ReconcileWebhooksRpcController],
  providers: [
    WebhookEventsHandler,
    EventPruner,
    RecordedOrderGuard,
    ListEventsUseCase,
    GetEventUseCase,
    ListEventsOfTransactionUseCase,
    ListEventDeliveriesUseCase,
    ReconcileTransactionsUseCase,
    ReconcileEventsUseCase,
  ],
  exports: [WebhookEventsHandler],
})
export class EventsModule {}
