import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ErrorCodes, type FetchTransactionBody, type ListTransactionsBody, type ListTransactionsResult, type RpcRequest, type TransactionView } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { DomainException } from '@payments/platform';
import type { TransactionRow } from '../transaction-store';
import { RefundStore } from '../../refunds/refund-store';
import { toViews } from './verify-transaction.usecase';

/** Newest first; start_date and end_date are whole UTC days, both included. */
@Injectable()
export class ListTransactionsUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly refunds: RefundStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<ListTransactionsBody>): Promise<ListTransactionsResult> {
    const rows = await queryRows<TransactionRow>(
      this.ds,
      `SELECT * FROM transactions
        WHERE business_id = $1 AND mode = $2
          AND ($3::date IS NULL OR created_at >= $3::date::timestamp AT TIME ZONE 'UTC')
          AND ($4::date IS NULL OR created_at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC')
        ORDER BY created_at DESC, id DESC
        LIMIT $5`,
      [ctx.business_id, ctx.mode, body.start_date ?? null, body.end_date ?? null, body.limit],
    );
    return { transactions: await toViews(this.ds, this.refunds, rows) };
  }
}

@Injectable()
export class FetchTransactionUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly refunds: RefundStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<FetchTransactionBody>): Promise<TransactionView> {
    const [row] = await queryRows<TransactionRow>(this.ds, 'SELECT * FROM transactions WHERE business_id = $1 AND mode = $2 AND public_id = $3', [
      ctx.business_id,
      ctx.mode,
      body.public_id,
    ]);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no transaction ${body.public_id}`);
    const [view] = await toViews(this.ds, this.refunds, [row]);
    return view;
  }
}
