import { Controller, Get, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import {
  ErrorCodes,
  ReconcileAdminRpcPatterns,
  type ReconcileCallbacksResult,
  type ReconcileLedgerBody,
  type ReconcileLedgerResult,
  type ReconcilePageBody,
  type ReconcileTransactionsResult,
  type ReconcileWebhookEventsResult,
  type ReconcileWebhookTransactionsBody,
  type ReconcileWebhookTransactionsResult,
} from '@payments/contracts';
import { AdminGuard } from '../auth/admin.guard';
import {
  ADMIN_SPLIT_LEDGER_SERVICE,
  ADMIN_TRANSACTION_SERVICE,
  ADMIN_WEBHOOK_DISPATCHER,
  RpcClientPool,
} from '../rpc/rpc-client-pool';
import { ReconcileIdsDto, ReconcilePageQuery, ReconcileTransactionIdsDto } from './reconcile.requests';
import { ApiResponds } from '@payments/platform';
import * as R from './reconcile.responses';
import { ValidBody, ValidQuery } from '../http/request-validation';
import { ApiErrors } from '../openapi/route-docs';

const page = (q: ReconcilePageQuery): ReconcilePageBody => ({ after: q.after ?? null, limit: q.limit ?? 500 });

/**
 * What each service recorded, for `ops reconcile` (ADMIN_API_TOKEN). Read-only; the lookups by
 * id are POSTs only because a page of ids does not fit a query string.
 */
@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('admin/v1/reconcile')
@UseGuards(AdminGuard)
export class ReconcileAdminController {
  constructor(
    @Inject(ADMIN_TRANSACTION_SERVICE) private readonly transactions: RpcClientPool,
    @Inject(ADMIN_SPLIT_LEDGER_SERVICE) private readonly ledger: RpcClientPool,
    @Inject(ADMIN_WEBHOOK_DISPATCHER) private readonly hooks: RpcClientPool,
  ) {}

  @Get('transactions')
  @ApiResponds(
    200,
    'One page of transactions with their refunds, as transaction-service recorded them',
    R.ReconcileTransactions,
  )
  @ApiErrors()
  async listTransactions(
    @Req() req: ApiRequest,
    @ValidQuery(ReconcilePageQuery) q: ReconcilePageQuery,
  ): Promise<R.ReconcileTransactions> {
    const r = await this.transactions.call<ReconcilePageBody, ReconcileTransactionsResult>(
      ReconcileAdminRpcPatterns.Transactions,
      { request_id: req.requestId },
      page(q),
    );
    return { result: 'success', ...r };
  }

  @Post('ledger')
  @HttpCode(200)
  @ApiResponds(
    200,
    "The ledger's copy of the given transactions: refunds, split entries with what their reversals undo, " +
      'and the entries its rules expect',
    R.ReconcileLedger,
  )
  @ApiErrors()
  async ledgerOf(@Req() req: ApiRequest, @ValidBody(ReconcileIdsDto) dto: ReconcileIdsDto): Promise<R.ReconcileLedger> {
    const r = await this.ledger.call<ReconcileLedgerBody, ReconcileLedgerResult>(
      ReconcileAdminRpcPatterns.Ledger,
      { request_id: req.requestId },
      { ids: dto.ids },
    );
    return { result: 'success', ...r };
  }

  @Post('webhook-transactions')
  @HttpCode(200)
  @ApiResponds(
    200,
    'The status of the latest transaction.* event webhook-dispatcher recorded per transaction',
    R.ReconcileWebhookTransactions,
  )
  @ApiErrors()
  async webhookTransactions(
    @Req() req: ApiRequest,
    @ValidBody(ReconcileTransactionIdsDto) dto: ReconcileTransactionIdsDto,
  ): Promise<R.ReconcileWebhookTransactions> {
    const r = await this.hooks.call<ReconcileWebhookTransactionsBody, ReconcileWebhookTransactionsResult>(
      ReconcileAdminRpcPatterns.WebhookTransactions,
      { request_id: req.requestId },
      { transaction_ids: dto.transaction_ids },
    );
    return { result: 'success', ...r };
  }

  @Get('webhook-events')
  @ApiResponds(200, 'One page of catalogue events with the callbacks each has a delivery for', R.ReconcileWebhookEvents)
  @ApiErrors()
  async webhookEvents(
    @Req() req: ApiRequest,
    @ValidQuery(ReconcilePageQuery) q: ReconcilePageQuery,
  ): Promise<R.ReconcileWebhookEvents> {
    const r = await this.hooks.call<ReconcilePageBody, ReconcileWebhookEventsResult>(
      ReconcileAdminRpcPatterns.WebhookEvents,
      { request_id: req.requestId },
      page(q),
    );
    return { result: 'success', ...r };
  }

  @Get('webhook-callbacks')
  @ApiResponds(200, 'One page of callbacks', R.ReconcileCallbacks)
  @ApiErrors()
  async webhookCallbacks(
    @Req() req: ApiRequest,
    @ValidQuery(ReconcilePageQuery) q: ReconcilePageQuery,
  ): Promise<R.ReconcileCallbacks> {
    const r = await this.hooks.call<ReconcilePageBody, ReconcileCallbacksResult>(
      ReconcileAdminRpcPatterns.WebhookCallbacks,
      { request_id: req.requestId },
      page(q),
    );
    return { result: 'success', ...r };
  }
}
