import { Controller, Get, Inject, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RpcPatterns, type ListTransactionsBody, type ListTransactionsResult, type TransactionView } from '@payments/contracts';
import { rpcContext } from '../auth/api-key.guard';
import type { ApiRequest } from '../http/http-types';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import { Allows, DashboardGuard } from './dashboard.guard';
import { totalsByDay, type DayTotals } from './overview';
import { presentPayment, type PaymentItem } from './payments.presenter';

const DAYS = 14;
const PAGE = 500;
/** At most this many payments are read for the chart; past it `truncated` says the oldest days are partial. */
const MAX_PAYMENTS = 5_000;

export interface Overview {
  result: 'success';
  days: DayTotals[];
  truncated: boolean;
  recent: PaymentItem[];
}

/**
 * The overview page: payments and successful volume per day over the last 14 days, and the latest
 * payments, read through transactions.list (the API's own list) page by page.
 */
@ApiExcludeController()
@Controller('dashboard/api/overview')
@UseGuards(DashboardGuard)
export class OverviewController {
  constructor(@Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool) {}

  @Get()
  @Allows('payments.read')
  async get(@Req() req: ApiRequest): Promise<Overview> {
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    const seen: TransactionView[] = [];
    let page: ListTransactionsBody = { limit: PAGE, start_date: from };
    let more = true;
    while (more && seen.length < MAX_PAYMENTS) {
      const r = await this.transactions.call<ListTransactionsBody, ListTransactionsResult>(RpcPatterns.TransactionsList, rpcContext(req), page);
      seen.push(...r.transactions);
      more = r.has_more && r.transactions.length > 0;
      if (more) page = { ...page, starting_after: r.transactions[r.transactions.length - 1].transaction_id };
    }
    return { result: 'success', days: totalsByDay(seen, from, to), truncated: more, recent: seen.slice(0, 8).map(presentPayment) };
  }
}
