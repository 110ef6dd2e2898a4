import { Injectable } from '@nestjs/common';
import {
  ErrorCodes,
  type RecoverDeliveriesBody,
  type RecoverDeliveriesResult,
  type RpcRequest,
} from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { CallbackStore } from '../../callbacks/callback-store';
import { DeliveryAdminStore } from '../delivery-admin-store';
import { DeliveryQueue } from '../delivery-queue';

@Injectable()
export class RecoverDeliveriesUseCase {
  constructor(
    private readonly callbacks: CallbackStore,
    private readonly deliveryLog: DeliveryAdminStore,
    private readonly queue: DeliveryQueue,
  ) {}

  /**
   * Queues again every failed or skipped delivery of the callback created since `since`: what
   * failed before it was disabled and what was raised while it was.
   */
  async execute({ ctx, body }: RpcRequest<RecoverDeliveriesBody>): Promise<RecoverDeliveriesResult> {
    const c = await this.callbacks.ownedOrNotFound(ctx, body.id);
    if (!c.is_active)
      throw new DomainException(
        ErrorCodes.ValidationError,
        'the callback is disabled; enable it (PUT is_active=true) first',
      );
    const rows = await this.deliveryLog.recover({ callbackId: c.id }, body.since, {
      dryRun: false,
      after: null,
      limit: null,
    });
    this.queue.wake();
    return { requeued: rows.length };
  }
}
