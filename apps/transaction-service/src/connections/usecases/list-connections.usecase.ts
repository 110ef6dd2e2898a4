import { Injectable } from '@nestjs/common';
import type { ListConnectionsResult, RpcRequest } from '@payments/contracts';
import { ConnectionStore, toConnectionView } from '../connection-store';

/** The business's connections to payment providers in the mode of its key, without their credentials. */
@Injectable()
export class ListConnectionsUseCase {
  constructor(private readonly store: ConnectionStore) {}

  async execute({ ctx }: RpcRequest<unknown>): Promise<ListConnectionsResult> {
    return { connections: (await this.store.list(ctx.business_id, ctx.mode)).map(toConnectionView) };
  }
}
