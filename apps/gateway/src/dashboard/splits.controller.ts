import { Controller, Get, Inject, Param, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  ErrorCodes,
  INVOICE_REFERENCE_PATTERN,
  LedgerRpcPatterns,
  type DashboardApi,
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
import { PartnerNames } from './business-names';
import { Allows, DashboardGuard } from './dashboard.guard';
import { presentDashboardEntry } from './splits.presenter';

const PAGE = 25;

/**
 * /v1/splits for the session's business and mode, plus an invoice's entries, the summary per
 * counterparty and partner names; creating and changing configs is in split-configs.controller.ts.
 */
@ApiExcludeController()
@Controller('dashboard/api/splits')
@UseGuards(DashboardGuard)
export class DashboardSplitsController {
  constructor(
    @Inject(SPLIT_LEDGER_SERVICE) private readonly ledger: RpcClientPool,
    private readonly names: PartnerNames,
  ) {}

  /** As GET /v1/splits/config, one page of 25 unless a limit is given. */
  @Get('configs')
  @Allows('splits.read')
  async configs(
    @Req() req: ApiRequest,
    @ValidQuery(SplitConfigPageQuery) q: SplitConfigPageQuery,
  ): Promise<DashboardApi.SplitConfigList> {
    const r = await this.ledger.call<ListSplitConfigsBody, ListSplitConfigsResult>(
      LedgerRpcPatterns.SplitConfigsList,
      rpcContext(req),
      cursorPage(q, PAGE),
    );
    return presentSplitConfigList(r);
  }

  @Get('ledger')
  @Allows('splits.read')
  async entries(
    @Req() req: ApiRequest,
    @ValidQuery(LedgerPageQuery) q: LedgerPageQuery,
  ): Promise<DashboardApi.LedgerPage> {
    const r = await this.ledger.call<ListLedgerBody, ListLedgerResult>(LedgerRpcPatterns.LedgerList, rpcContext(req), {
      ...cursorPage(q, PAGE),
      skip: q.skip ?? 0,
    });
    const names = await this.names.payersOf(req, r.ledger_entries);
    return {
      result: 'success',
      ledger_entries: r.ledger_entries.map(presentDashboardEntry),
      count: r.count,
      has_more: r.has_more,
      business_names: names,
    };
  }

  /** GET /v1/splits/ledger/summary's answer, and the same amounts per counterparty and currency. */
  @Get('ledger/summary')
  @Allows('splits.read')
  async summary(@Req() req: ApiRequest): Promise<DashboardApi.LedgerSummary> {
    const r = await this.ledger.call<Record<string, never>, LedgerSummaryResult>(
      LedgerRpcPatterns.LedgerSummary,
      rpcContext(req),
      {},
    );
    const names = await this.names.owingOf(req, r.by_counterparty);
    return { ...presentSummary(r), by_counterparty: r.by_counterparty, business_names: names };
  }

  @Get('invoices')
  @Allows('splits.read')
  async invoices(
    @Req() req: ApiRequest,
    @ValidQuery(InvoicePageQuery) q: InvoicePageQuery,
  ): Promise<DashboardApi.InvoiceList> {
    const r = await this.ledger.call<ListInvoicesBody, ListInvoicesResult>(
      LedgerRpcPatterns.InvoicesList,
      rpcContext(req),
      { ...cursorPage(q, PAGE), skip: q.skip ?? 0 },
    );
    return presentInvoices(r.invoices, r.count, r.has_more);
  }

  /**
   * One invoice of the business (debtor or creditor) with a page of the entries it nets (`skip`
   * pages on); any other is 404.
   */
  @Get('invoices/:reference')
  @Allows('splits.read')
  async invoice(
    @Req() req: ApiRequest,
    @Param('reference') reference: string,
    @ValidQuery(InvoiceEntriesQuery) q: InvoiceEntriesQuery,
  ): Promise<DashboardApi.InvoiceDetail> {
    if (!INVOICE_REFERENCE_PATTERN.test(reference))
      throw new ApiException(ErrorCodes.NotFound, `no invoice ${reference}`);
    const r = await this.ledger.call<GetInvoiceBody, GetInvoiceResult>(LedgerRpcPatterns.InvoicesGet, rpcContext(req), {
      invoice_reference: reference,
      entries_skip: q.skip ?? 0,
    });
    const names = await this.names.payersOf(req, r.ledger_entries);
    const invoice = presentInvoice(r.invoice);
    return {
      result: 'success',
      invoice,
      ledger_entries: r.ledger_entries.map(presentDashboardEntry),
      has_more_entries: r.has_more_entries,
      business_names: names,
    };
  }
}
