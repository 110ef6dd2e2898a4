import { Controller, HttpCode, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import {
  ErrorCodes,
  INVOICE_REFERENCE_PATTERN,
  LedgerRpcPatterns,
  type InvoiceView,
  type MarkInvoicePaidBody,
  type RunSettlementResult,
} from '@payments/contracts';
import { AdminGuard } from '../auth/admin.guard';
import { ApiException } from '../http/api-exception';
import { ADMIN_SPLIT_LEDGER_SERVICE, RpcClientPool } from '../rpc/rpc-client-pool';
import { presentInvoicePaid, presentSettlementRun } from './splits.presenter';
import { ApiResponds } from '@payments/platform';
import * as R from './splits.responses';
import { ApiErrors } from '../openapi/route-docs';

/** Operators' settlement controls (ADMIN_API_TOKEN). No request body: anything sent is ignored. */
@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('admin/v1')
@UseGuards(AdminGuard)
export class SettlementAdminController {
  constructor(@Inject(ADMIN_SPLIT_LEDGER_SERVICE) private readonly ledger: RpcClientPool) {}

  /** Runs a settlement now (as the weekly job does) and answers what it invoiced. */
  @Post('settlements/run')
  @HttpCode(200)
  @ApiResponds(200, 'Invoices issued by this run', R.SettlementRun)
  @ApiErrors()
  async run(@Req() req: ApiRequest): Promise<R.SettlementRun> {
    const result = await this.ledger.call<Record<string, never>, RunSettlementResult>(
      LedgerRpcPatterns.SettlementRun,
      { request_id: req.requestId },
      {},
    );
    return presentSettlementRun(result);
  }

  /** Marks an invoice paid (its entries become settled); repeating it answers the same. */
  @Post('invoices/:invoice_reference/paid')
  @HttpCode(200)
  @ApiResponds(200, 'Invoice marked paid; entries settled', R.InvoicePaid)
  @ApiErrors(ErrorCodes.NotFound)
  async paid(@Req() req: ApiRequest, @Param('invoice_reference') reference: string): Promise<R.InvoicePaid> {
    if (!INVOICE_REFERENCE_PATTERN.test(reference))
      throw new ApiException(ErrorCodes.NotFound, `no invoice ${reference}`);
    const invoice = await this.ledger.call<MarkInvoicePaidBody, InvoiceView>(
      LedgerRpcPatterns.InvoiceMarkPaid,
      { request_id: req.requestId },
      {
        invoice_reference: reference,
      },
    );
    return presentInvoicePaid(invoice);
  }
}
