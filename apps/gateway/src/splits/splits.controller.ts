import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import {
  ErrorCodes,
  LedgerRpcPatterns,
  type LedgerSummaryResult,
  type ListInvoicesBody,
  type ListInvoicesResult,
  type ListLedgerBody,
  type ListLedgerResult,
  type ListSplitConfigsBody,
  type ListSplitConfigsResult,
  type SplitConfigRefBody,
  type SplitConfigView,
} from '@payments/contracts';
import { ApiKeyGuard, rpcContext } from '../auth/api-key.guard';
import { BusinessesService } from '../businesses/businesses.service';
import { RpcClientPool, SPLIT_LEDGER_SERVICE } from '../rpc/rpc-client-pool';
import { cursorPage } from '../http/cursor-query';
import {
  CreateSplitConfigDto,
  InvoicePageQuery,
  LedgerPageQuery,
  PAGE_LIMIT_DEFAULT,
  SplitConfigPageQuery,
  UpdateSplitConfigDto,
} from './split.requests';
import {
  presentInvoices,
  presentLedger,
  presentSplitConfigCreated,
  presentSplitConfigDeactivated,
  presentSplitConfigList,
  presentSplitConfigUpdated,
  presentSummary,
} from './splits.presenter';
import { ApiResponds } from '@payments/platform';
import * as R from './splits.responses';
import { ValidBody, ValidQuery } from '../http/request-validation';
import { checkedSplitConfigId, createSplitConfig, updateSplitConfig } from './split-config-writes';
import { ApiErrors } from '../openapi/route-docs';

/** Split configs, the ledger and invoices of the key's business in the key's mode (secret key only). */
@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('v1/splits')
@UseGuards(ApiKeyGuard)
export class SplitsController {
  constructor(
    @Inject(SPLIT_LEDGER_SERVICE) private readonly ledger: RpcClientPool,
    private readonly businesses: BusinessesService,
  ) {}

  @Post('config')
  @HttpCode(200)
  @ApiResponds(200, 'Split config created', R.SplitConfigSaved)
  @ApiErrors()
  async create(
    @Req() req: ApiRequest,
    @ValidBody(CreateSplitConfigDto) dto: CreateSplitConfigDto,
  ): Promise<R.SplitConfigSaved> {
    const config = await createSplitConfig(this.ledger, this.businesses, rpcContext(req), dto);
    return presentSplitConfigCreated(config);
  }

  @Get('config')
  @ApiResponds(
    200,
    'The business’s split configs, newest first: all of them, or one page when a limit is given',
    R.SplitConfigList,
  )
  @ApiErrors()
  async list(
    @Req() req: ApiRequest,
    @ValidQuery(SplitConfigPageQuery) query: SplitConfigPageQuery,
  ): Promise<R.SplitConfigList> {
    const result = await this.ledger.call<ListSplitConfigsBody, ListSplitConfigsResult>(
      LedgerRpcPatterns.SplitConfigsList,
      rpcContext(req),
      {
        limit: query.limit,
        starting_after: query.starting_after,
        ending_before: query.ending_before,
      },
    );
    return presentSplitConfigList(result);
  }

  @Put('config/:public_id')
  @ApiResponds(200, 'Split config updated', R.SplitConfigSaved)
  @ApiErrors(ErrorCodes.NotFound)
  async update(
    @Req() req: ApiRequest,
    @Param('public_id') publicId: string,
    @ValidBody(UpdateSplitConfigDto) dto: UpdateSplitConfigDto,
  ): Promise<R.SplitConfigSaved> {
    const config = await updateSplitConfig(this.ledger, rpcContext(req), publicId, dto);
    return presentSplitConfigUpdated(config);
  }

  @Delete('config/:public_id')
  @ApiResponds(200, 'Deactivated (repeatable)', R.SplitConfigDeactivated)
  @ApiErrors(ErrorCodes.NotFound)
  async deactivate(@Req() req: ApiRequest, @Param('public_id') publicId: string): Promise<R.SplitConfigDeactivated> {
    const config = await this.ledger.call<SplitConfigRefBody, SplitConfigView>(
      LedgerRpcPatterns.SplitConfigsDeactivate,
      rpcContext(req),
      {
        public_id: checkedSplitConfigId(publicId),
      },
    );
    return presentSplitConfigDeactivated(config);
  }

  @Get('ledger')
  @ApiResponds(200, 'Ledger entries, newest first', R.Ledger)
  @ApiErrors()
  async entries(@Req() req: ApiRequest, @ValidQuery(LedgerPageQuery) query: LedgerPageQuery): Promise<R.Ledger> {
    const result = await this.ledger.call<ListLedgerBody, ListLedgerResult>(
      LedgerRpcPatterns.LedgerList,
      rpcContext(req),
      {
        ...cursorPage(query, PAGE_LIMIT_DEFAULT),
        skip: query.skip ?? 0,
      },
    );
    return presentLedger(result.ledger_entries, result.count, result.has_more);
  }

  @Get('ledger/summary')
  @ApiResponds(200, 'Unsettled totals per currency', R.LedgerSummary)
  @ApiErrors()
  async summary(@Req() req: ApiRequest): Promise<R.LedgerSummary> {
    const result = await this.ledger.call<Record<string, never>, LedgerSummaryResult>(
      LedgerRpcPatterns.LedgerSummary,
      rpcContext(req),
      {},
    );
    return presentSummary(result);
  }

  @Get('invoices')
  @ApiResponds(200, 'Settlement invoices of the business', R.InvoiceList)
  @ApiErrors()
  async invoices(
    @Req() req: ApiRequest,
    @ValidQuery(InvoicePageQuery) query: InvoicePageQuery,
  ): Promise<R.InvoiceList> {
    const result = await this.ledger.call<ListInvoicesBody, ListInvoicesResult>(
      LedgerRpcPatterns.InvoicesList,
      rpcContext(req),
      {
        ...cursorPage(query, PAGE_LIMIT_DEFAULT),
        skip: query.skip ?? 0,
      },
    );
    return presentInvoices(result.invoices, result.count, result.has_more);
  }
}
