import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import { ErrorCodes, type FetchTransactionBody, type ListTransactionsBody, type ListTransactionsResult, type RpcRequest, type TransactionView } from '@payments/contracts';
import { DomainException } from '@payments/platform';
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

@Injectable()
export class FetchTransactionUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: TransactionQueries,
    private readonly refunds: RefundStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<FetchTransactionBody>): Promise<TransactionView> {
    const row = await this.queries.byPublicId(this.ds, ctx.business_id, ctx.mode, body.public_id);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no transaction ${body.public_id}`);
    const [view] = await toViews(this.ds, this.refunds, [row]);
    return view;
  }
}
