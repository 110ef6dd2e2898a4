import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ErrorCodes, type GetRefundBody, type RefundView, type RpcRequest } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { DomainException } from '@payments/platform';
import { REFUND_SELECT, toRefundView, type RefundRow } from '../refund-store';

@Injectable()
export class GetRefundUseCase {
  constructor(private readonly ds: DataSource) {}

  async execute({ ctx, body }: RpcRequest<GetRefundBody>): Promise<RefundView> {
    const [row] = await queryRows<RefundRow>(this.ds, `${REFUND_SELECT} WHERE r.public_id = $1 AND r.business_id = $2 AND r.mode = $3`, [
      body.refund_id,
      ctx.business_id,
      ctx.mode,
    ]);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no refund ${body.refund_id}`);
    return toRefundView(row);
  }
}
