import { Injectable } from '@nestjs/common';
import type { ConnectionDeletedResult, ConnectionProviderBody, RpcRequest } from '@payments/contracts';
import { knownProvider, notConnected } from '../connection-refusals';
import { ConnectionStore } from '../connection-store';

/** Removes the business's connection to one provider in the mode of its key. */
@Injectable()
export class DeleteConnectionUseCase {
  constructor(private readonly store: ConnectionStore) {}

  async execute({ ctx, body }: RpcRequest<ConnectionProviderBody>): Promise<ConnectionDeletedResult> {
    const provider = knownProvider(body.provider);
    if (!(await this.store.remove(ctx.business_id, ctx.mode, provider))) throw notConnected(provider, ctx.mode);
    return { provider };
  }
}
