import { Injectable } from '@nestjs/common';
import type { ConnectionProviderBody, ConnectionView, RpcRequest } from '@payments/contracts';
import { knownProvider, notConnected } from '../connection-refusals';
import { ConnectionStore, toConnectionView } from '../connection-store';

/** The business's connection to one provider in the mode of its key, without its credentials. */
@Injectable()
export class GetConnectionUseCase {
  constructor(private readonly store: ConnectionStore) {}

  async execute({ ctx, body }: RpcRequest<ConnectionProviderBody>): Promise<ConnectionView> {
    const provider = knownProvider(body.provider);
    const row = await this.store.get(ctx.business_id, ctx.mode, provider);
    if (!row) throw notConnected(provider, ctx.mode);
    return toConnectionView(row);
  }
}
