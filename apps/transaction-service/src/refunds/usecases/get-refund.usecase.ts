import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import { ErrorCodes, type GetRefundBody, type RefundView, type RpcRequest } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { RefundStore, toRefundView } from '../refund-store';

/** One of the merchant's refunds by its id (another business's or mode's is not found). */
@Injectable()
export class GetRefundUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: RefundStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<GetRefundBody>): Promise<RefundView> {
    const row = await this.store.byPublicId(this.ds, ctx.business_id, ctx.mode, body.refund_id);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no refund ${body.refund_id}`);
    return toRefundView(row);
  }
}
