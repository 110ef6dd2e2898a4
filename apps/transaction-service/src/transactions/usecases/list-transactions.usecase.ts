import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type { ListTransactionsBody, ListTransactionsResult, RpcRequest } from '@payments/contracts';
import { RefundStore } from '../../refunds/refund-store';
import { TransactionQueries } from '../transaction-queries';
import { toViews } from './verify-transaction.usecase';

/** Newest first, one cursor page, filtered (TransactionQueries.list). */
@Injectable()
export class ListTransactionsUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: TransactionQueries,
    private readonly refunds: RefundStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<ListTransactionsBody>): Promise<ListTransactionsResult> {
    const { rows, hasMore } = await this.queries.list(this.ds, ctx.business_id, ctx.mode, body);
    return { transactions: await toViews(this.ds, this.refunds, rows), has_more: hasMore };
  }
}
