import { Controller, HttpCode, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ErrorCodes, RefundAdminRpcPatterns, type RefundView, type ResolveRefundBody } from '@payments/contracts';
import { ApiResponds } from '@payments/platform';
import { AdminGuard } from '../auth/admin.guard';
import { ApiException } from '../http/api-exception';
import type { ApiRequest } from '../http/http-types';
import { ADMIN_TRANSACTION_SERVICE, RpcClientPool } from '../rpc/rpc-client-pool';
import { REFUND_ID } from '../transactions/transaction.requests';
import { presentRefund } from '../transactions/transaction.presenter';
import { RefundAnswer } from '../transactions/transaction.responses';
import { ValidBody, asRpcBody } from '../http/request-validation';
import { ResolveRefundDto } from './refund.requests';
import { ApiErrors } from '../openapi/route-docs';

/**
 * Refunds that wait for an operator (ADMIN_API_TOKEN): a live payment's provider has no refund API
 * (Paynow), so the operator refunds the customer at the provider, then completes the refund here
 * (or fails it). docs/going-live.md, "Refunds of live payments".
 */
@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('admin/v1/refunds')
@UseGuards(AdminGuard)
export class RefundsAdminController {
  constructor(@Inject(ADMIN_TRANSACTION_SERVICE) private readonly transactions: RpcClientPool) {}

  @Post(':refund_id/complete')
  @HttpCode(200)
  @ApiResponds(200, "The refund, now success: the ledger reverses the payment's splits", RefundAnswer)
  @ApiErrors(ErrorCodes.NotFound)
  complete(
    @Req() req: ApiRequest,
    @Param('refund_id') refundId: string,
    @ValidBody(ResolveRefundDto) dto: ResolveRefundDto,
  ): Promise<RefundAnswer> {
    return this.resolve(req, refundId, 'success', dto);
  }

  @Post(':refund_id/fail')
  @HttpCode(200)
  @ApiResponds(200, 'The refund, now failed (nothing was refunded)', RefundAnswer)
  @ApiErrors(ErrorCodes.NotFound)
  fail(
    @Req() req: ApiRequest,
    @Param('refund_id') refundId: string,
    @ValidBody(ResolveRefundDto) dto: ResolveRefundDto,
  ): Promise<RefundAnswer> {
    return this.resolve(req, refundId, 'failed', dto);
  }

  private async resolve(
    req: ApiRequest,
    refundId: string,
    outcome: ResolveRefundBody['outcome'],
    dto: ResolveRefundDto,
  ): Promise<RefundAnswer> {
    if (!REFUND_ID.test(refundId)) throw new ApiException(ErrorCodes.NotFound, `no refund ${refundId}`);
    const refund = await this.transactions.call<ResolveRefundBody, RefundView>(
      RefundAdminRpcPatterns.Resolve,
      { request_id: req.requestId },
      { refund_id: refundId, outcome, note: asRpcBody(dto).note },
    );
    return presentRefund(refund);
  }
}
