import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from '@payments/database';
import { ErrorCodes, type RpcRequest, type TransactionView, type VerifyTransactionBody } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { RefundStore } from '../../refunds/refund-store';
import { TransactionQueries } from '../transaction-queries';
import { toView, type TransactionRow } from '../transaction-store';

/** Views of transaction rows with their `amount_refunded`, in one query for the whole page. */
export async function toViews(
  db: Pick<EntityManager, 'query'>,
  refunds: RefundStore,
  rows: TransactionRow[],
): Promise<TransactionView[]> {
  const refunded = await refunds.refundedByTransaction(
    db,
    rows.map((r) => String(r.id)),
  );
  return rows.map((r) => toView(r, refunded.get(String(r.id)) ?? 0));
}

@Injectable()
export class VerifyTransactionUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: TransactionQueries,
    private readonly refunds: RefundStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<VerifyTransactionBody>): Promise<TransactionView> {
    const row = await this.queries.byReference(this.ds, ctx.business_id, ctx.mode, body.reference);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no transaction with reference ${body.reference}`);
    const [view] = await toViews(this.ds, this.refunds, [row]);
    return view;
  }
}
