import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { LedgerSummaryResult, RpcRequest } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { summarize } from '../domain/summary';

/**
 * What the caller is owed and owes per currency over unsettled entries (pending and invoiced) in
 * its mode. Reversals are negative entries, so they subtract. PostgreSQL sums per counterparty;
 * `summarize` folds those into the two lists.
 */
@Injectable()
export class LedgerSummaryUseCase {
  constructor(private readonly ds: DataSource) {}

  async execute({ ctx }: RpcRequest<unknown>): Promise<LedgerSummaryResult> {
    const rows = await queryRows<{ creditor_business_id: number; debtor_business_id: number; currency: string; amount: string }>(
      this.ds,
      `SELECT creditor_business_id, debtor_business_id, currency, sum(amount)::text AS amount
         FROM ledger_entries
        WHERE (creditor_business_id = $1 OR debtor_business_id = $1) AND mode = $2 AND status IN ('pending', 'invoiced')
        GROUP BY creditor_business_id, debtor_business_id, currency`,
      [ctx.business_id, ctx.mode],
    );
    return summarize(
      rows.map((r) => ({ creditorBusinessId: r.creditor_business_id, debtorBusinessId: r.debtor_business_id, currency: r.currency.trim(), amount: Number(r.amount) })),
      ctx.business_id,
    );
  }
}
