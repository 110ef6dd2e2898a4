import { Body, Controller, HttpCode, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ErrorCodes, RefundAdminRpcPatterns, type RefundView, type ResolveRefundBody } from '@payments/contracts';
import { ApiResponds } from '@payments/platform';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { AdminGuard } from '../auth/admin.guard';
import { ApiException } from '../http/api-exception';
import type { ApiRequest } from '../http/http-types';
import { ADMIN_TRANSACTION_SERVICE, RpcClientPool } from '../rpc/rpc-client-pool';
import { REFUND_ID } from '../transactions/dtos/transaction-queries.dto';
import { presentRefund } from '../transactions/transaction.presenter';
import { RefundAnswer } from '../transactions/transaction.responses';

export class ResolveRefundDto {
  @IsOptional()
  @IsString({ message: 'note must be a string' })
  @MaxLength(500, { message: 'note must be at most 500 characters' })
  note?: string;
}

/**
 * Refunds that wait for an operator (ADMIN_API_TOKEN): a live payment's provider has no refund API
 * (Paynow), so the operator refunds the customer at the provider, then completes the refund here
 * (or fails it). docs/going-live.md, "Refunds of live payments".
 */
@Controller('admin/v1/refunds')
@UseGuards(AdminGuard)
export class RefundsAdminController {
  constructor(@Inject(ADMIN_TRANSACTION_SERVICE) private readonly transactions: RpcClientPool) {}

  @Post(':refund_id/complete')
  @HttpCode(200)
  @ApiResponds(200, 'The refund, now success: the ledger reverses the payment\'s splits', RefundAnswer)
  complete(@Req() req: ApiRequest, @Param('refund_id') refundId: string, @Body() dto: ResolveRefundDto): Promise<RefundAnswer> {
    return this.resolve(req, refundId, 'success', dto);
  }

  @Post(':refund_id/fail')
  @HttpCode(200)
  @ApiResponds(200, 'The refund, now failed (nothing was refunded)', RefundAnswer)
  fail(@Req() req: ApiRequest, @Param('refund_id') refundId: string, @Body() dto: ResolveRefundDto): Promise<RefundAnswer> {
    return this.resolve(req, refundId, 'failed', dto);
  }

  private async resolve(req: ApiRequest, refundId: string, outcome: ResolveRefundBody['outcome'], dto: ResolveRefundDto): Promise<RefundAnswer> {
    if (!REFUND_ID.test(refundId)) throw new ApiException(ErrorCodes.NotFound, `no refund ${refundId}`);
    const refund = await this.transactions.call<ResolveRefundBody, RefundView>(RefundAdminRpcPatterns.Resolve, { request_id: req.requestId }, { refund_id: refundId, outcome, note: dto.note });
    return presentRefund(refund);
  }
}
