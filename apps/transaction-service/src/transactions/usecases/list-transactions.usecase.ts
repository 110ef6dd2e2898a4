import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ErrorCodes, type FetchTransactionBody, type ListTransactionsBody, type ListTransactionsResult, type RpcRequest, type TransactionView } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { RefundStore } from '../../refunds/refund-store';
import { TransactionQueries } from '../transaction-queries';
import { toViews } from './verify-transaction.usecase';

/** Newest first; start_date and end_date are whole UTC days, both included. */
@Injectable()
export class ListTransactionsUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: TransactionQueries,
    private readonly refunds: RefundStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<ListTransactionsBody>): Promise<ListTransactionsResult> {
    const rows = await this.queries.list(this.ds, {
      businessId: ctx.business_id,
      mode: ctx.mode,
      startDate: body.start_date ?? null,
      endDate: body.end_date ?? null,
      limit: body.limit,
    });
    return { transactions: await toViews(this.ds, this.refunds, rows) };
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
