import { Injectable } from '@nestjs/common';
import type { CallbackIdBody, CallbackSecretView, RpcRequest } from '@payments/contracts';
import { CallbackStore } from '../callback-store';

/** The callback's signing secret, and until when the previous one still signs beside it (null once it does not). */
@Injectable()
export class RevealSecretUseCase {
  constructor(private readonly store: CallbackStore) {}

  async execute({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<CallbackSecretView> {
    const c = await this.store.ownedOrNotFound(ctx, body.id);
    const prevLive = c.previous_secret_expires_at && c.previous_secret_expires_at > new Date();
    return {
      secret: c.secret,
      previous_secret_expires_at: prevLive ? c.previous_secret_expires_at!.toISOString() : null,
    };
  }
}
