import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ListLedgerBody, ListLedgerResult, RpcRequest } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { toLedgerEntryView, type LedgerEntryRow } from '../ledger-store';

const OF_BUSINESS = '(creditor_business_id = $1 OR debtor_business_id = $1) AND mode = $2';

/**
 * The caller's ledger entries in the caller's mode (as creditor or debtor), newest first, one page;
 * `count` is the total number of such entries, so a client can page through them.
 */
@Injectable()
export class ListLedgerEntriesUseCase {
  constructor(private readonly ds: DataSource) {}

  async execute({ ctx, body }: RpcRequest<ListLedgerBody>): Promise<ListLedgerResult> {
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const rows = await queryRows<LedgerEntryRow>(
        m,
        `SELECT * FROM ledger_entries WHERE ${OF_BUSINESS} ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT $4`,
        [ctx.business_id, ctx.mode, body.skip, body.limit],
      );
      const [{ n }] = await queryRows<{ n: number }>(m, `SELECT count(*)::int AS n FROM ledger_entries WHERE ${OF_BUSINESS}`, [ctx.business_id, ctx.mode]);
      return { ledger_entries: rows.map(toLedgerEntryView), count: n };
    });
  }
}
