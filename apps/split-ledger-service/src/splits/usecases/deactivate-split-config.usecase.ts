import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type { RpcRequest, SplitConfigRefBody, SplitConfigView } from '@payments/contracts';
import { SplitConfigStore, toSplitConfigView } from '../split-config-store';

/**
 * Deactivates a config: transactions created from now on no longer get its split; those created
 * while it was active still do when they succeed. Deactivating again changes nothing and answers
 * the same.
 */
@Injectable()
export class DeactivateSplitConfigUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: SplitConfigStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<SplitConfigRefBody>): Promise<SplitConfigView> {
    const row = await this.ds.transaction(async (m) => {
      const current = await this.store.lockOwned(m, body.public_id, ctx.business_id, ctx.mode);
      return current.is_active ? this.store.deactivate(m, current) : current;
    });
    return toSplitConfigView(row);
  }
}
