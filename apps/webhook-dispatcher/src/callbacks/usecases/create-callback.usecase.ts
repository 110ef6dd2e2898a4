import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import { ErrorCodes, type CallbackView, type CreateCallbackBody, type RpcRequest } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { WebhookDispatcherConfig } from '../../config/webhook.config';
import { HttpSender } from '../../delivery/http-sender';
import { newWebhookSecret } from '../../delivery/signature';
import { validateEvents, validateTarget } from '../callback-input';
import { CallbackStore, toCallbackView } from '../callback-store';

@Injectable()
export class CreateCallbackUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly sender: HttpSender,
    private readonly store: CallbackStore,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
  ) {}

  async execute({ ctx, body }: RpcRequest<CreateCallbackBody>): Promise<CallbackView> {
    validateEvents(body.events);
    await validateTarget(this.sender, body.url);
    return this.ds.transaction(async (m) => {
      const n = await this.store.countLiveLocked(m, ctx.business_id, ctx.mode);
      if (n >= this.config.WEBHOOK_MAX_CALLBACKS) {
        throw new DomainException(
          ErrorCodes.ValidationError,
          `a business may register at most ${this.config.WEBHOOK_MAX_CALLBACKS} callbacks per mode`,
        );
      }
      const row = await this.store.insert(m, {
        business_id: ctx.business_id,
        mode: ctx.mode,
        url: body.url,
        description: body.description ?? '',
        events: [...new Set(body.events)],
        secret: newWebhookSecret(),
      });
      return toCallbackView(row);
    });
  }
}
