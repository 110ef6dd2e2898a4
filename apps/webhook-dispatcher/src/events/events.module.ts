import { Module } from '@nestjs/common';
import { AdminRecoverUseCase } from '../callbacks/admin-recover.usecase';
import { WebhookAdminRpcController } from '../callbacks/admin.rpc-controller';
import { ReconcileWebhooksUseCase } from '../callbacks/reconcile.usecase';
import { CallbacksRpcController } from '../callbacks/callbacks.rpc-controller';
import { CallbackStore } from '../callbacks/callback-store';
import { CallbacksService } from '../callbacks/callbacks.usecases';
import { DeliverAttemptUseCase } from '../delivery/deliver-attempt.usecase';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { CallbackGate } from '../delivery/callback-gate';
import { DeliveryAdminStore } from '../delivery/delivery-admin-store';
import { DeliveryStore } from '../delivery/delivery-store';
import { FirstAttempts } from '../delivery/first-attempts';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { HttpSender } from '../delivery/http-sender';
import { TestPingUseCase } from '../callbacks/test-ping.usecase';
import { EventPruner } from './event-pruner';
import { EventsRpcController } from './events.rpc-controller';
import { EventsStore } from './events-store';
import { RecordedOrderGuard } from './recorded-order-guard';
import { WebhookEventsHandler } from './transaction-events.handler';

@Module({
  controllers: [CallbacksRpcController, WebhookAdminRpcController, EventsRpcController],
  providers: [
    // One gate per process, shared by the queue's worker and the in-process first attempts. As many
    // may wait for a callback as may run for it, so one busy callback holds at most twice its limit
    // of queue worker slots and the rest stay free for other callbacks.
    { provide: CallbackGate, useFactory: (c: WebhookDispatcherConfig) => new CallbackGate(c.WEBHOOK_CALLBACK_CONCURRENCY, c.WEBHOOK_CALLBACK_CONCURRENCY), inject: [WebhookDispatcherConfig] },
    FirstAttempts,
    WebhookEventsHandler,
    DeliveryStore,
    DeliveryAdminStore,
    CallbackStore,
    HttpSender,
    DeliverAttemptUseCase,
    DeliveryQueue,
    CallbacksService,
    AdminRecoverUseCase,
    ReconcileWebhooksUseCase,
    EventsStore,
    EventPruner,
    RecordedOrderGuard,
    TestPingUseCase,
  ],
  exports: [WebhookEventsHandler],
})
export class WebhookEventsModule {}
