import { Readable } from 'node:stream';
import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  ErrorCodes,
  LedgerRpcPatterns,
  RpcPatterns,
  WebhookRpcPatterns,
  type CreateRefundBody,
  type DashboardApi,
  type EventsOfTransactionBody,
  type EventsOfTransactionResult,
  type FetchTransactionBody,
  type LedgerOfTransactionBody,
  type LedgerOfTransactionResult,
  type ListRefundsBody,
  type ListRefundsResult,
  type ListTransactionsBody,
  type ListTransactionsResult,
  type RefundView,
  type TransactionView,
} from '@payments/contracts';
import { rootLogger } from '@payments/platform';
import { rpcContext } from '../auth/api-key.guard';
import { ApiException } from '../http/api-exception';
import type { ApiReply, ApiRequest } from '../http/http-types';
import { RpcClientPool, SPLIT_LEDGER_SERVICE, TRANSACTION_SERVICE, WEBHOOK_DISPATCHER } from '../rpc/rpc-client-pool';
import { Audit } from './audit';
import { Allows, DashboardGuard } from './dashboard.guard';
import { RefundDto } from './dashboard.requests';
import { ValidBody } from '../http/request-validation';
import { listBody } from './payments.query';
import { presentDashboardEntry, type DashboardLedgerEntry } from './splits.presenter';
import { CSV_HEADER, csvRow, presentPayment, presentRefund, refundable } from './payments.presenter';

const PAGE = 25;
const EXPORT_PAGE = 500;
const TXN_ID = /^txn_[0-9A-Za-z]{1,64}$/;

export type PaymentDetail = DashboardApi.PaymentDetail;

/**
 * Payments in the session's business and mode, through the same transaction-service RPCs as
 * /v1/transactions: another business's or mode's id answers 404 there, as it does for the API.
 */
@ApiExcludeController()
@Controller('dashboard/api/payments')
@UseGuards(DashboardGuard)
export class PaymentsController {
  constructor(
    @Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool,
    @Inject(WEBHOOK_DISPATCHER) private readonly hooks: RpcClientPool,
    @Inject(SPLIT_LEDGER_SERVICE) private readonly ledger: RpcClientPool,
    private readonly audit: Audit,
  ) {}

  @Get()
  @Allows('payments.read')
  async list(@Req() req: ApiRequest, @Query() query: unknown): Promise<DashboardApi.PaymentList> {
    const r = await this.transactions.call<ListTransactionsBody, ListTransactionsResult>(
      RpcPatterns.TransactionsList,
      rpcContext(req),
      listBody(query, PAGE),
    );
    return { result: 'success', payments: r.transactions.map(presentPayment), has_more: r.has_more };
  }

  /**
   * Every payment matching the filters as CSV, streamed page by page (any size, bounded memory).
   * The first page is read before the answer starts, so a service that is down gives its error
   * answer (503, 504) rather than a 200 that breaks off; a later page that fails breaks the
   * transfer off (no chunked end), so the download fails visibly rather than looking complete.
   */
  @Get('export.csv')
  @Allows('payments.read')
  async export(@Req() req: ApiRequest, @Res() reply: ApiReply, @Query() query: unknown): Promise<void> {
    const ctx = rpcContext(req);
    const transactions = this.transactions;
    const list = (page: ListTransactionsBody) =>
      transactions.call<ListTransactionsBody, ListTransactionsResult>(RpcPatterns.TransactionsList, ctx, page);
    let page: ListTransactionsBody = { ...listBody(query, EXPORT_PAGE), limit: EXPORT_PAGE, ending_before: undefined };
    const first = await list(page);
    async function* rows(): AsyncGenerator<string> {
      yield CSV_HEADER;
      for (let r = first; ; r = await list(page)) {
        if (r.transactions.length > 0) yield r.transactions.map((t) => csvRow(presentPayment(t))).join('');
        if (!r.has_more || r.transactions.length === 0) return;
        page = { ...page, starting_after: r.transactions[r.transactions.length - 1].transaction_id };
      }
    }
    const stream = Readable.from(rows());
    stream.on('error', (err) => rootLogger().error({ err, request_id: req.requestId }, 'payments export stopped'));
    const day = new Date().toISOString().slice(0, 10);
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="payments-${req.principal!.mode}-${day}.csv"`)
      .send(stream);
  }

  @Get(':id')
  @Allows('payments.read')
  async get(@Req() req: ApiRequest, @Param('id') id: string): Promise<PaymentDetail> {
    const payment = await this.fetch(req, id);
    const [refunds, events, splitEntries] = await Promise.all([
      this.refundsOf(req, payment),
      this.eventsOf(req, payment.transaction_id),
      this.splitEntriesOf(req, payment.transaction_id),
    ]);
    return {
      result: 'success',
      payment: presentPayment(payment),
      refunds: refunds.map(presentRefund),
      refundable: refundable(payment, refunds),
      events,
      split_entries: splitEntries,
    };
  }

  /** The same refund as POST /v1/transactions/refund: same rules, events and webhooks. */
  @Post(':id/refunds')
  @HttpCode(201)
  @Allows('refunds.create')
  async refund(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @ValidBody(RefundDto) body: RefundDto,
  ): Promise<DashboardApi.RefundAnswer> {
    // A refund is money leaving: a retry after an unknown outcome must replay, never refund twice.
    if (!req.idempotencyClaim) {
      throw new ApiException(
        ErrorCodes.ValidationError,
        'a refund needs an Idempotency-Key header (one per refund, reused when retrying it)',
        [{ field: 'Idempotency-Key', message: 'is required' }],
      );
    }
    const payment = await this.fetch(req, id);
    const refund = await this.transactions.call<CreateRefundBody, RefundView>(
      RpcPatterns.RefundsCreate,
      rpcContext(req),
      {
        transaction_reference: payment.transaction_reference,
        ...(body.amount != null ? { amount: body.amount } : {}),
        ...(body.reason != null ? { reason: body.reason } : {}),
      },
    );
    await this.audit.record(req, 'refund.create', payment.transaction_id, {
      refund_id: refund.refund_id,
      amount: refund.amount,
      currency: refund.currency,
    });
    return { result: 'success', refund: presentRefund(refund) };
  }

  private fetch(req: ApiRequest, id: string): Promise<TransactionView> {
    if (!TXN_ID.test(id)) throw new ApiException(ErrorCodes.NotFound, `no payment ${id}`);
    return this.transactions.call<FetchTransactionBody, TransactionView>(
      RpcPatterns.TransactionsFetch,
      rpcContext(req),
      { public_id: id },
    );
  }

  /** The page still shows the payment when the dispatcher cannot be asked; its timeline is then missing. */
  private async eventsOf(req: ApiRequest, transactionId: string): Promise<EventsOfTransactionResult['events'] | null> {
    try {
      const r = await this.hooks.call<EventsOfTransactionBody, EventsOfTransactionResult>(
        WebhookRpcPatterns.EventsOfTransaction,
        rpcContext(req),
        { transaction_id: transactionId },
      );
      return r.events;
    } catch (err) {
      rootLogger().warn({ err, request_id: req.requestId }, 'events of a payment unavailable');
      return null;
    }
  }

  /**
   * Asked only for a payment fetched as this business and mode; the page still shows the payment
   * when the ledger cannot be asked.
   */
  private async splitEntriesOf(req: ApiRequest, transactionId: string): Promise<DashboardLedgerEntry[] | null> {
    try {
      const r = await this.ledger.call<LedgerOfTransactionBody, LedgerOfTransactionResult>(
        LedgerRpcPatterns.LedgerOfTransaction,
        rpcContext(req),
        { transaction_id: transactionId },
      );
      return r.ledger_entries.map(presentDashboardEntry);
    } catch (err) {
      rootLogger().warn({ err, request_id: req.requestId }, 'split ledger entries of a payment unavailable');
      return null;
    }
  }

  private async refundsOf(req: ApiRequest, payment: TransactionView): Promise<RefundView[]> {
    const r = await this.transactions.call<ListRefundsBody, ListRefundsResult>(
      RpcPatterns.RefundsList,
      rpcContext(req),
      { transaction_reference: payment.transaction_reference },
    );
    return r.refunds;
  }
}
