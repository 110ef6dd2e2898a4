import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ListSplitConfigsResult, RpcRequest } from '@payments/contracts';
import { SplitConfigStore, toSplitConfigView } from '../split-config-store';

/** Every split config of the caller's business in the caller's mode, newest first, active or not. */
@Injectable()
export class ListSplitConfigsUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: SplitConfigStore,
  ) {}

  async execute({ ctx }: RpcRequest<unknown>): Promise<ListSplitConfigsResult> {
    const rows = await this.store.listOwned(this.ds, ctx.business_id, ctx.mode);
    return { split_configs: rows.map(toSplitConfigView) };
  }
}
