import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type { TransactionView } from '@payments/contracts';
import { RefundStore } from '../refunds/refund-store';
import { toView, type TransactionRow } from './transaction-row';

/** Transaction rows as the API shows them: each with its `amount_refunded`, read in one query for the whole page. */
@Injectable()
export class TransactionViews {
  constructor(
    private readonly ds: DataSource,
    private readonly refunds: RefundStore,
  ) {}

  async of(rows: TransactionRow[]): Promise<TransactionView[]> {
    const refunded = await this.refunds.refundedByTransaction(
      this.ds,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toView(r, refunded.get(r.id) ?? 0));
  }
}
