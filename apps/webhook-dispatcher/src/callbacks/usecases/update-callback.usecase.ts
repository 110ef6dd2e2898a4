import { Injectable } from '@nestjs/common';
import type { CallbackView, RpcRequest, UpdateCallbackBody } from '@payments/contracts';
import { HttpSender } from '../../delivery/http-sender';
import { validateEvents, validateTarget } from '../callback-input';
import { CallbackStore, toCallbackView } from '../callback-store';

@Injectable()
export class UpdateCallbackUseCase {
  constructor(
    private readonly store: CallbackStore,
    private readonly sender: HttpSender,
  ) {}

  async execute({ ctx, body }: RpcRequest<UpdateCallbackBody>): Promise<CallbackView> {
    const current = await this.store.ownedOrNotFound(ctx, body.id);
    if (body.events) validateEvents(body.events);
    if (body.url !== undefined) await validateTarget(this.sender, body.url);
    // Whether this enables it again is decided by the updating statement on the row as it finds it
    // (CallbackStore.update), not on `current`.
    const row = await this.store.update(current.id, {
      url: body.url ?? null,
      events: body.events ? [...new Set(body.events)] : null,
      description: body.description ?? null,
      isActive: body.is_active ?? null,
    });
    return toCallbackView(row);
  }
}
