import { Controller, Get, Inject, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  LedgerRpcPatterns,
  RpcPatterns,
  type DailyTotalsBody,
  type DailyTotalsResult,
  type DashboardApi,
  type ListTransactionsBody,
  type ListTransactionsResult,
} from '@payments/contracts';
import { rpcContext } from '../auth/api-key.guard';
import type { ApiRequest } from '../http/http-types';
import { RpcClientPool, SPLIT_LEDGER_SERVICE, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import { Allows, DashboardGuard } from './dashboard.guard';
import { totalsByDay } from './overview';
import { presentPayment } from './payments.presenter';

const DAYS = 14;
const RECENT = 8;

export type Overview = DashboardApi.Overview;

/**
 * The overview page: payments and successful volume per day over the last 14 days, from the daily
 * totals split-ledger-service keeps as it consumes the transactions' events (a moment behind the
 * payments list, and the same cost at any volume), and the latest payments from transactions.list.
 */
@ApiExcludeController()
@Controller('dashboard/api/overview')
@UseGuards(DashboardGuard)
export class OverviewController {
  constructor(
    @Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool,
    @Inject(SPLIT_LEDGER_SERVICE) private readonly ledger: RpcClientPool,
  ) {}

  @Get()
  @Allows('payments.read')
  async get(@Req() req: ApiRequest): Promise<Overview> {
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    const [totals, latest] = await Promise.all([
      this.ledger.call<DailyTotalsBody, DailyTotalsResult>(LedgerRpcPatterns.LedgerDailyTotals, rpcContext(req), {
        from,
        to,
      }),
      this.transactions.call<ListTransactionsBody, ListTransactionsResult>(
        RpcPatterns.TransactionsList,
        rpcContext(req),
        { limit: RECENT },
      ),
    ]);
    return {
      result: 'success',
      days: totalsByDay(totals.daily_totals, from, to),
      recent: latest.transactions.map(presentPayment),
    };
  }
}
