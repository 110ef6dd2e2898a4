import { Controller, Get, HttpCode, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import {
  ErrorCodes,
  RpcPatterns,
  type CreateRefundBody,
  type FetchTransactionBody,
  type GetRefundBody,
  type InitializeTransactionBody,
  type InitializeTransactionResult,
  type ListTransactionsBody,
  type ListTransactionsResult,
  type ListRefundsBody,
  type ListRefundsResult,
  type RefundView,
  type TransactionView,
  type VerifyTransactionBody,
} from '@payments/contracts';
import { ApiKeyGuard, PublicKeyAllowed, rpcContext } from '../auth/api-key.guard';
import { RedirectOriginsService } from '../businesses/redirect-origins';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from '../http/api-exception';
import { cursorPage } from '../http/cursor-query';
import { createdRange } from '../http/dates';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import {
  FetchTransactionQuery,
  InitializeTransactionDto,
  ListRefundsQuery,
  ListTransactionsQuery,
  REFUND_ID,
  RefundDto,
  VerifyTransactionQuery,
} from './transaction.requests';
import {
  presentInitialized,
  presentListItem,
  presentRefund,
  presentRefundCreated,
  presentRefundItem,
  presentTransactionModel,
  presentVerified,
} from './transaction.presenter';
import { ApiResponds } from '@payments/platform';
import { initializeProblems } from '@payments/domain';
import * as R from './transaction.responses';
import { ValidBody, ValidQuery, asRpcBody } from '../http/request-validation';
import { ApiErrors } from '../openapi/route-docs';

const DEFAULT_LIST_LIMIT = 100;

@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('v1/transactions')
@UseGuards(ApiKeyGuard)
export class TransactionsController {
  constructor(
    @Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly redirectOrigins: RedirectOriginsService,
  ) {}

  @Post()
  @HttpCode(200)
  @PublicKeyAllowed()
  @ApiResponds(200, 'Transaction initialized', R.InitializedTransaction)
  @ApiErrors(
    ErrorCodes.DuplicateReference,
    ErrorCodes.PaymentMethodUnavailable,
    ErrorCodes.PaymentDeclined,
    ErrorCodes.ProviderError,
    ErrorCodes.ProviderUnavailable,
  )
  async initialize(
    @Req() req: ApiRequest,
    @ValidBody(InitializeTransactionDto) dto: InitializeTransactionDto,
  ): Promise<R.InitializedTransaction> {
    if (req.principal?.key_type === 'public') await this.checkPublicKeyLimits(req.principal.business_id, dto);
    // The payment rules across fields, as transaction-service runs them too: refused here, no RPC.
    const problems = initializeProblems(asRpcBody(dto), rpcContext(req).mode);
    if (problems.length > 0) {
      throw new ApiException(ErrorCodes.ValidationError, `${problems[0].field} ${problems[0].message}`, problems);
    }
    const result = await this.transactions.call<InitializeTransactionBody, InitializeTransactionResult>(
      RpcPatterns.TransactionsInitialize,
      rpcContext(req),
      { ...asRpcBody(dto) },
    );
    return presentInitialized(result, this.config.CHECKOUT_URL);
  }

  /**
   * A public key is visible to anyone on the checkout page, so the server picks the reference (a chosen one could squat
   * the merchant's own) and the customer is only sent back to origins the merchant allowed (no open redirect).
   */
  private async checkPublicKeyLimits(businessId: number, dto: InitializeTransactionDto): Promise<void> {
    if (dto.transaction_reference !== undefined) {
      throw new ApiException(
        ErrorCodes.ValidationError,
        'transaction_reference cannot be set with a public key; the server generates it',
        [{ field: 'transaction_reference', message: 'cannot be set with a public key' }],
      );
    }
    const refused = await this.redirectOrigins.disallowed(businessId, {
      success_url: dto.success_url,
      failure_url: dto.failure_url,
    });
    if (refused.length > 0) {
      throw new ApiException(
        ErrorCodes.ValidationError,
        `${refused[0]} must have an origin from the business's redirect origins ` +
          '(set them with PUT /v1/settings/redirect_origins)',
        refused.map((field) => ({
          field,
          message: 'has an origin that is not among the business’s redirect origins',
        })),
      );
    }
  }

  @Get('verify')
  @ApiResponds(200, 'The transaction', R.VerifiedTransaction)
  @ApiErrors(ErrorCodes.NotFound)
  async verify(
    @Req() req: ApiRequest,
    @ValidQuery(VerifyTransactionQuery) query: VerifyTransactionQuery,
  ): Promise<R.VerifiedTransaction> {
    const view = await this.transactions.call<VerifyTransactionBody, TransactionView>(
      RpcPatterns.TransactionsVerify,
      rpcContext(req),
      {
        reference: query.reference,
      },
    );
    return presentVerified(view);
  }

  @Get('list')
  @ApiResponds(200, 'Newest first, one page (cursor: starting_after / ending_before)', R.TransactionList)
  @ApiErrors()
  async list(
    @Req() req: ApiRequest,
    @ValidQuery(ListTransactionsQuery) query: ListTransactionsQuery,
  ): Promise<R.TransactionList> {
    const result = await this.transactions.call<ListTransactionsBody, ListTransactionsResult>(
      RpcPatterns.TransactionsList,
      rpcContext(req),
      {
        ...cursorPage(query, DEFAULT_LIST_LIMIT),
        start_date: query.start_date,
        end_date: query.end_date,
        status: query.status,
        reference: query.reference,
        email: query.email,
        payment_link_id: query.payment_link_id,
        created: createdRange(query),
      },
    );
    return { result: 'success', transactions: result.transactions.map(presentListItem), has_more: result.has_more };
  }

  @Get('fetch')
  @ApiResponds(200, 'The Transaction model', R.TransactionModel)
  @ApiErrors(ErrorCodes.NotFound)
  async fetch(
    @Req() req: ApiRequest,
    @ValidQuery(FetchTransactionQuery) query: FetchTransactionQuery,
  ): Promise<R.TransactionModel> {
    const view = await this.transactions.call<FetchTransactionBody, TransactionView>(
      RpcPatterns.TransactionsFetch,
      rpcContext(req),
      {
        public_id: query.publicId,
      },
    );
    return presentTransactionModel(view);
  }

  @Post('refund')
  @HttpCode(200)
  @ApiResponds(200, 'Refund accepted', R.RefundCreated)
  @ApiErrors(
    ErrorCodes.NotFound,
    ErrorCodes.RefundExceedsAmount,
    ErrorCodes.TransactionNotRefundable,
    ErrorCodes.PaymentMethodUnavailable,
  )
  async refund(@Req() req: ApiRequest, @ValidBody(RefundDto) dto: RefundDto): Promise<R.RefundCreated> {
    const refund = await this.transactions.call<CreateRefundBody, RefundView>(
      RpcPatterns.RefundsCreate,
      rpcContext(req),
      { ...asRpcBody(dto) },
    );
    return presentRefundCreated(refund);
  }

  @Get('refunds')
  @ApiResponds(
    200,
    "The transaction's refunds, oldest first: all of them, or one page when a limit or cursor is given",
    R.RefundList,
  )
  @ApiErrors(ErrorCodes.NotFound)
  async listRefunds(
    @Req() req: ApiRequest,
    @ValidQuery(ListRefundsQuery) query: ListRefundsQuery,
  ): Promise<R.RefundList> {
    const result = await this.transactions.call<ListRefundsBody, ListRefundsResult>(
      RpcPatterns.RefundsList,
      rpcContext(req),
      {
        transaction_reference: query.transaction_reference,
        limit: query.limit,
        starting_after: query.starting_after,
        ending_before: query.ending_before,
      },
    );
    return { result: 'success', refunds: result.refunds.map(presentRefundItem), has_more: result.has_more };
  }

  @Get('refunds/:refund_id')
  @ApiResponds(200, 'The refund', R.RefundAnswer)
  @ApiErrors(ErrorCodes.NotFound)
  async getRefund(@Req() req: ApiRequest, @Param('refund_id') refundId: string): Promise<R.RefundAnswer> {
    if (!REFUND_ID.test(refundId)) throw new ApiException(ErrorCodes.NotFound, `no refund ${refundId}`);
    const refund = await this.transactions.call<GetRefundBody, RefundView>(RpcPatterns.RefundsGet, rpcContext(req), {
      refund_id: refundId,
    });
    return presentRefund(refund);
  }
}
