import { Inject, Injectable } from '@nestjs/common';
import type { CallbackIdBody, CallbackSecretView, RpcRequest } from '@payments/contracts';
import { WebhookDispatcherConfig } from '../../config/webhook.config';
import { newWebhookSecret } from '../../delivery/signature';
import { CallbackStore } from '../callback-store';

@Injectable()
export class RollSecretUseCase {
  constructor(
    private readonly store: CallbackStore,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
  ) {}

  /** A new signing secret; the old one keeps signing beside it for the grace period. */
  async execute({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<CallbackSecretView> {
    const c = await this.store.ownedOrNotFound(ctx, body.id);
    const row = await this.store.rollSecret(c.id, newWebhookSecret(), this.config.WEBHOOK_SECRET_ROLL_GRACE_SECONDS);
    return { secret: row.secret, previous_secret_expires_at: row.previous_secret_expires_at?.toISOString() ?? null };
  }
}
