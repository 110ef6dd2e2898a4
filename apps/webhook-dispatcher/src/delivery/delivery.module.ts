import { Module } from '@nestjs/common';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { StoresModule } from '../stores.module';
import { CallbackGate } from './callback-gate';
import { DeliverAttemptUseCase } from './usecases/deliver-attempt.usecase';
import { DeliveriesRpcController } from './deliveries.rpc-controller';
import { DeliveryQueue } from './delivery-queue';
import { FirstAttempts } from './first-attempts';
import { HttpSender } from './http-sender';
import { AdminRecoverUseCase } from './usecases/admin-recover.usecase';
import { ListDeliveriesUseCase } from './usecases/list-deliveries.usecase';
import { RecoverDeliveriesUseCase } from './usecases/recover-deliveries.usecase';
import { ResendDeliveryUseCase } from './usecases/resend-delivery.usecase';

/**
 * Deliveries: the attempts (queue and in-process), a callback's delivery log, resend and recover.
 * Exports the sender (for callbacks' target checks and test pings) and FirstAttempts (for the
 * events handler's new deliveries).
 */
@Module({
  imports: [StoresModule],
  controllers: [DeliveriesRpcController],
  providers: [
    // One gate per process, shared by the queue's worker and the in-process first attempts. As many
    // may wait for a callback as may run for it, so one busy callback holds at most twice its limit
    // of queue worker slots and the rest stay free for other callbacks.
    {
      provide: CallbackGate,
      useFactory: (c: WebhookDispatcherConfig) =>
        new CallbackGate(c.WEBHOOK_CALLBACK_CONCURRENCY, c.WEBHOOK_CALLBACK_CONCURRENCY),
      inject: [WebhookDispatcherConfig],
    },
    FirstAttempts,
    HttpSender,
    DeliverAttemptUseCase,
    DeliveryQueue,
    ListDeliveriesUseCase,
    ResendDeliveryUseCase,
    RecoverDeliveriesUseCase,
    AdminRecoverUseCase,
  ],
  exports: [HttpSender, FirstAttempts],
})
export class DeliveryModule {}
