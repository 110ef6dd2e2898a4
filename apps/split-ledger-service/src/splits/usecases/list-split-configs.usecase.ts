import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type { ListSplitConfigsBody, ListSplitConfigsResult, RpcRequest } from '@payments/contracts';
import { SplitConfigStore, toSplitConfigView } from '../split-config-store';

/** The caller's split configs in the caller's mode, newest first, active or not: all, or one cursor page. */
@Injectable()
export class ListSplitConfigsUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: SplitConfigStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<ListSplitConfigsBody>): Promise<ListSplitConfigsResult> {
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const { rows, hasMore, count } = await this.store.pageOwned(m, ctx.business_id, ctx.mode, body ?? {});
      return { split_configs: rows.map(toSplitConfigView), count, has_more: hasMore };
    });
  }
}
