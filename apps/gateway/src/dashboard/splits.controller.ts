import { Controller, Get, Inject, Param, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  ErrorCodes,
  INVOICE_REFERENCE_PATTERN,
  LedgerRpcPatterns,
  type CounterpartyTotal,
  type GetInvoiceBody,
  type GetInvoiceResult,
  type LedgerSummaryResult,
  type ListInvoicesBody,
  type ListInvoicesResult,
  type ListLedgerBody,
  type ListLedgerResult,
  type ListSplitConfigsBody,
  type ListSplitConfigsResult,
} from '@payments/contracts';
import { rpcContext } from '../auth/api-key.guard';
import { ApiException } from '../http/api-exception';
import { cursorPage } from '../http/cursor-query';
import type { ApiRequest } from '../http/http-types';
import { ValidQuery } from '../http/request-validation';
import { RpcClientPool, SPLIT_LEDGER_SERVICE } from '../rpc/rpc-client-pool';
import { InvoiceEntriesQuery, InvoicePageQuery, LedgerPageQuery, SplitConfigPageQuery } from '../splits/split.requests';
import { presentInvoice, presentInvoices, presentSplitConfigList, presentSummary } from '../splits/splits.presenter';
import type * as R from '../splits/splits.responses';
import { Allows, DashboardGuard } from './dashboard.guard';
import { presentDashboardEntry, type DashboardLedgerEntry } from './splits.presenter';

const PAGE = 25;

/**
 * Split configs, the ledger with its summary, and settlement invoices of the session's business
 * and mode: the RPCs and answers of /v1/splits (read only), plus an invoice's page (its entries)
 * and the summary per counterparty.
 */
@ApiExcludeController()
@Controller('dashboard/api/splits')
@UseGuards(DashboardGuard)
export class DashboardSplitsController {
  constructor(@Inject(SPLIT_LEDGER_SERVICE) private readonly ledger: RpcClientPool) {}

  /** As GET /v1/splits/config, one page of 25 unless a limit is given. */
  @Get('configs')
  @Allows('splits.read')
  async configs(@Req() req: ApiRequest, @ValidQuery(SplitConfigPageQuery) q: SplitConfigPageQuery): Promise<R.SplitConfigList> {
    const r = await this.ledger.call<ListSplitConfigsBody, ListSplitConfigsResult>(LedgerRpcPatterns.SplitConfigsList, rpcContext(req), cursorPage(q, PAGE));
    return presentSplitConfigList(r);
  }

  @Get('ledger')
  @Allows('splits.read')
  async entries(@Req() req: ApiRequest, @ValidQuery(LedgerPageQuery) q: LedgerPageQuery): Promise<{ result: 'success'; ledger_entries: DashboardLedgerEntry[]; count: number; has_more: boolean }> {
    const r = await this.ledger.call<ListLedgerBody, ListLedgerResult>(LedgerRpcPatterns.LedgerList, rpcContext(req), { ...cursorPage(q, PAGE), skip: q.skip ?? 0 });
    return { result: 'success', ledger_entries: r.ledger_entries.map(presentDashboardEntry), count: r.count, has_more: r.has_more };
  }

  /** GET /v1/splits/ledger/summary's answer, and the same amounts per counterparty and currency. */
  @Get('ledger/summary')
  @Allows('splits.read')
  async summary(@Req() req: ApiRequest): Promise<R.LedgerSummary & { by_counterparty: CounterpartyTotal[] }> {
    const r = await this.ledger.call<Record<string, never>, LedgerSummaryResult>(LedgerRpcPatterns.LedgerSummary, rpcContext(req), {});
    return { ...presentSummary(r), by_counterparty: r.by_counterparty };
  }

  @Get('invoices')
  @Allows('splits.read')
  async invoices(@Req() req: ApiRequest, @ValidQuery(InvoicePageQuery) q: InvoicePageQuery): Promise<R.InvoiceList> {
    const r = await this.ledger.call<ListInvoicesBody, ListInvoicesResult>(LedgerRpcPatterns.InvoicesList, rpcContext(req), { ...cursorPage(q, PAGE), skip: q.skip ?? 0 });
    return presentInvoices(r.invoices, r.count, r.has_more);
  }

  /** One invoice of the business (debtor or creditor) with a page of the entries it nets (`skip` pages on); any other is 404. */
  @Get('invoices/:reference')
  @Allows('splits.read')
  async invoice(
    @Req() req: ApiRequest,
    @Param('reference') reference: string,
    @ValidQuery(InvoiceEntriesQuery) q: InvoiceEntriesQuery,
  ): Promise<{ result: 'success'; invoice: R.Invoice; ledger_entries: DashboardLedgerEntry[]; has_more_entries: boolean }> {
    if (!INVOICE_REFERENCE_PATTERN.test(reference)) throw new ApiException(ErrorCodes.NotFound, `no invoice ${reference}`);
    const r = await this.ledger.call<GetInvoiceBody, GetInvoiceResult>(LedgerRpcPatterns.InvoicesGet, rpcContext(req), { invoice_reference: reference, entries_skip: q.skip ?? 0 });
    return { result: 'success', invoice: presentInvoice(r.invoice), ledger_entries: r.ledger_entries.map(presentDashboardEntry), has_more_entries: r.has_more_entries };
  }
}
