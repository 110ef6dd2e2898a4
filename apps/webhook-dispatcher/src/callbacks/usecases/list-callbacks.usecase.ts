import { Injectable } from '@nestjs/common';
import type { ListCallbacksBody, ListCallbacksResult, RpcRequest } from '@payments/contracts';
import { CallbackStore, toCallbackView } from '../callback-store';

/** The caller's live callbacks (its business and mode), newest first. */
@Injectable()
export class ListCallbacksUseCase {
  constructor(private readonly store: CallbackStore) {}

  async execute({ ctx, body }: RpcRequest<ListCallbacksBody>): Promise<ListCallbacksResult> {
    const { rows, hasMore, total } = await this.store.page(ctx.business_id, ctx.mode, body);
    return { callbacks: rows.map(toCallbackView), total_count: total, has_more: hasMore };
  }
}
