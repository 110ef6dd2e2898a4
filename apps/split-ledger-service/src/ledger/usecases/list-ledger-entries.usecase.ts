import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type { ListLedgerBody, ListLedgerResult, RpcRequest } from '@payments/contracts';
import { LedgerQueries } from '../ledger-queries';
import { toLedgerEntryView } from '../ledger-store';

/**
 * The caller's ledger entries in the caller's mode (as creditor or debtor), newest first, one page;
 * `count` is the total number of such entries, so a client can page through them.
 */
@Injectable()
export class ListLedgerEntriesUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: LedgerQueries,
  ) {}

  async execute({ ctx, body }: RpcRequest<ListLedgerBody>): Promise<ListLedgerResult> {
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const { rows, hasMore, count } = await this.queries.page(m, ctx.business_id, ctx.mode, body);
      return { ledger_entries: rows.map(toLedgerEntryView), count, has_more: hasMore };
    });
  }
}
