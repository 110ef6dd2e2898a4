import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type { LedgerSummaryResult, RpcRequest } from '@payments/contracts';
import { LedgerQueries } from '../ledger-queries';
import { summarize } from '../domain/summary';

/**
 * What the caller is owed and owes per currency over unsettled entries (pending and invoiced) in
 * its mode. Reversals are negative entries, so they subtract. PostgreSQL sums per counterparty;
 * `summarize` folds those into the two lists.
 */
@Injectable()
export class GetLedgerSummaryUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: LedgerQueries,
  ) {}

  async execute({ ctx }: RpcRequest<unknown>): Promise<LedgerSummaryResult> {
    const rows = await this.queries.unsettledSums(this.ds, ctx.business_id, ctx.mode);
    return summarize(
      rows.map((r) => ({
        creditorBusinessId: r.creditor_business_id,
        debtorBusinessId: r.debtor_business_id,
        currency: r.currency.trim(),
        amount: Number(r.amount),
      })),
      ctx.business_id,
    );
  }
}
