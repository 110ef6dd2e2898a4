import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type { CallbackIdBody, RpcRequest } from '@payments/contracts';
import { DeliveryAdminStore } from '../../delivery/delivery-admin-store';
import { CallbackStore } from '../callback-store';

@Injectable()
export class DeleteCallbackUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: CallbackStore,
    private readonly deliveryLog: DeliveryAdminStore,
  ) {}

  /** Removes the callback from every read and cancels what it had pending. */
  async execute({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<void> {
    const current = await this.store.ownedOrNotFound(ctx, body.id);
    await this.ds.transaction(async (m) => {
      // The callback row first, then its deliveries: the same lock order as recording an attempt.
      await this.store.softDelete(m, current.id);
      await this.deliveryLog.cancelPendingOf(m, current.id);
    });
  }
}
