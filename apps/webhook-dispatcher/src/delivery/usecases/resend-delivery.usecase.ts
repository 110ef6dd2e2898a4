import { Injectable } from '@nestjs/common';
import { ErrorCodes, type DeliveryView, type ResendDeliveryBody, type RpcRequest } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { CallbackStore } from '../../callbacks/callback-store';
import { DeliveryAdminStore } from '../delivery-admin-store';
import { DeliveryQueue } from '../delivery-queue';

@Injectable()
export class ResendDeliveryUseCase {
  constructor(
    private readonly callbacks: CallbackStore,
    private readonly deliveryLog: DeliveryAdminStore,
    private readonly queue: DeliveryQueue,
  ) {}

  /** Sends one delivery again (a fresh retry cycle), whatever its outcome so far. */
  async execute({ ctx, body }: RpcRequest<ResendDeliveryBody>): Promise<DeliveryView['status']> {
    const c = await this.callbacks.ownedOrNotFound(ctx, body.id);
    if (!c.is_active)
      throw new DomainException(
        ErrorCodes.ValidationError,
        'the callback is disabled; enable it (PUT is_active=true) first',
      );
    const resent = await this.deliveryLog.resend(c.id, body.delivery_id);
    if (!resent)
      throw new DomainException(ErrorCodes.NotFound, `no delivery ${body.delivery_id} that can be sent again now`);
    this.queue.wake();
    return 'pending';
  }
}
