import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type { ListTransactionsBody, ListTransactionsResult, RpcRequest } from '@payments/contracts';
import { TransactionQueries } from '../transaction-queries';
import { TransactionViews } from '../transaction-views';

/** Newest first, one cursor page, filtered (TransactionQueries.list). */
@Injectable()
export class ListTransactionsUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: TransactionQueries,
    private readonly views: TransactionViews,
  ) {}

  async execute({ ctx, body }: RpcRequest<ListTransactionsBody>): Promise<ListTransactionsResult> {
    const { rows, hasMore } = await this.queries.list(this.ds, ctx.business_id, ctx.mode, body);
    return { transactions: await this.views.of(rows), has_more: hasMore };
  }
}
