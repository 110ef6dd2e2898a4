import { Injectable } from '@nestjs/common';
import type { CallbackIdBody, CallbackView, RpcRequest } from '@payments/contracts';
import { CallbackStore, toCallbackView } from '../callback-store';

@Injectable()
export class GetCallbackUseCase {
  constructor(private readonly store: CallbackStore) {}

  async execute({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<CallbackView> {
    return toCallbackView(await this.store.ownedOrNotFound(ctx, body.id));
  }
}
