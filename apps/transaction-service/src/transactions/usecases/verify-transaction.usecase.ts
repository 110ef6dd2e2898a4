import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from '@payments/database';
import { ErrorCodes, type RpcRequest, type TransactionView, type VerifyTransactionBody } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { RefundStore } from '../../refunds/refund-store';
import { TransactionQueries } from '../transaction-queries';
import type { TransactionRow } from '../transaction-store';

export function toView(row: TransactionRow, amountRefunded: number): TransactionView {
  return {
    transaction_id: row.public_id,
    transaction_reference: row.reference,
    amount: Number(row.amount),
    charges: Number(row.charges),
    total: Number(row.total),
    currency: row.currency.trim(),
    status: row.status,
    message: row.message,
    email: row.email,
    checkout_id: row.checkout_id,
    success_url: row.success_url,
    failure_url: row.failure_url,
    payment_method_type: row.payment_method_type,
    payment_method_code: row.payment_method_code,
    payment_link_id: row.payment_link_id,
    amount_refunded: amountRefunded,
    metadata: row.metadata ?? {},
    description: row.description ?? null,
    date_created: row.created_at.toISOString(),
    date_updated: row.updated_at.toISOString(),
  };
}

/** Views of transaction rows with their `amount_refunded`, in one query for the whole page. */
export async function toViews(db: Pick<EntityManager, 'query'>, refunds: RefundStore, rows: TransactionRow[]): Promise<TransactionView[]> {
  const refunded = await refunds.refundedByTransaction(db, rows.map((r) => String(r.id)));
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
