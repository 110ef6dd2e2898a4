import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ListInvoicesBody, ListInvoicesResult, RpcRequest } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { toInvoiceView, type InvoiceRow } from '../invoice-store';

const OF_BUSINESS = '(debtor_business_id = $1 OR creditor_business_id = $1) AND mode = $2';

/** The caller's invoices (as debtor or creditor) in its mode, newest first; `count` is the total. */
@Injectable()
export class ListInvoicesUseCase {
  constructor(private readonly ds: DataSource) {}

  async execute({ ctx, body }: RpcRequest<ListInvoicesBody>): Promise<ListInvoicesResult> {
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const rows = await queryRows<InvoiceRow>(
        m,
        `SELECT * FROM settlement_invoices WHERE ${OF_BUSINESS} ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT $4`,
        [ctx.business_id, ctx.mode, body.skip, body.limit],
      );
      const [{ n }] = await queryRows<{ n: number }>(m, `SELECT count(*)::int AS n FROM settlement_invoices WHERE ${OF_BUSINESS}`, [ctx.business_id, ctx.mode]);
      return { invoices: rows.map(toInvoiceView), count: n };
    });
  }
}
