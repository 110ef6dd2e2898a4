import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import {
  reconcilePageSize,
  type ReconcilePageBody,
  type ReconcileTransaction,
  type ReconcileTransactionsResult,
} from '@payments/contracts';
import { RefundStore } from '../../refunds/refund-store';
import { TransactionQueries } from '../transaction-queries';

/** What transaction-service recorded, for `ops reconcile`: read-only, one page of transactions at a time. */
@Injectable()
export class ReconcileTransactionsUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: TransactionQueries,
    private readonly refunds: RefundStore,
  ) {}

  async execute(body: ReconcilePageBody): Promise<ReconcileTransactionsResult> {
    const limit = reconcilePageSize(body.limit);
    const after = body.after !== null && /^\d{1,18}$/.test(body.after) ? body.after : '0';
    // Both reads in one snapshot, so a refund is never seen without its transaction's matching state.
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const rows = await this.queries.reconcilePage(m, after, limit);
      const refunds = await this.refunds.forReconcile(
        m,
        rows.map((r) => r.id),
      );
      const transactions: ReconcileTransaction[] = rows.map((r) => ({
        ...r,
        status: r.status as ReconcileTransaction['status'],
        amount: Number(r.amount),
        updated_at: r.updated_at.toISOString(),
        refunds: refunds.get(r.id) ?? [],
      }));
      return { transactions, next: rows.length === limit ? rows[rows.length - 1].id : null };
    });
  }
}
