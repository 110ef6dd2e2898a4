import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type { ListInvoicesBody, ListInvoicesResult, RpcRequest } from '@payments/contracts';
import { InvoiceStore, toInvoiceView } from '../invoice-store';

/** The caller's invoices (as debtor or creditor) in its mode, newest first; `count` is the total. */
@Injectable()
export class ListInvoicesUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly invoices: InvoiceStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<ListInvoicesBody>): Promise<ListInvoicesResult> {
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const { rows, hasMore, count } = await this.invoices.page(m, ctx.business_id, ctx.mode, body);
      return { invoices: rows.map(toInvoiceView), count, has_more: hasMore };
    });
  }
}
