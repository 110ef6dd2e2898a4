import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ErrorCodes, type CreateLinkBody, type LinkSplit, type LinkView, type RpcRequest } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { bpsShareFloor, computeCharges, isSupportedCurrency } from '@payments/money';
import { DomainException, publicId } from '@payments/platform';
import { FeeSchedule } from '../../transactions/fee-schedule';

/** What a link's splits take out of `amount`: floor(amount × bps / 10 000) for percentages, value for fixed. */
export function splitsTotal(amount: number, splits: LinkSplit[]): number {
  return splits.reduce((sum, s) => sum + (s.type === 'percentage' ? bpsShareFloor(amount, s.value) : s.value), 0);
}

/**
 * A reusable payment link. Charges use the default fee (no method is known until the customer
 * pays); each payment through the link becomes its own transaction carrying the link's splits.
 */
@Injectable()
export class CreateLinkUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly fees: FeeSchedule,
  ) {}

  async execute({ ctx, body }: RpcRequest<CreateLinkBody>): Promise<LinkView> {
    if (!isSupportedCurrency(body.currency)) throw new DomainException(ErrorCodes.ValidationError, 'currency is not supported', [{ field: 'currency', message: 'is not supported' }]);
    const splits = body.splits ?? [];
    if (splits.some((s) => s.business_id === ctx.business_id)) {
      throw new DomainException(ErrorCodes.ValidationError, 'a split cannot pay the link owner itself', [{ field: 'splits', message: 'business_id must be another business' }]);
    }
    if (splitsTotal(body.amount, splits) > body.amount) {
      throw new DomainException(ErrorCodes.ValidationError, 'the splits add up to more than the amount', [{ field: 'splits', message: 'must not add up to more than amount' }]);
    }
    const charges = computeCharges(body.amount, this.fees.forCode(null));
    const [row] = await queryRows<{ public_id: string }>(
      this.ds,
      `INSERT INTO payment_links (public_id, business_id, mode, amount, charges, currency, description, splits, success_url, failure_url)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING public_id`,
      [publicId('plink'), ctx.business_id, ctx.mode, body.amount, charges, body.currency, body.description, JSON.stringify(splits), body.success_url ?? null, body.failure_url ?? null],
    );
    return { payment_link_id: row.public_id, amount: body.amount, charges, total: body.amount + charges, currency: body.currency, description: body.description, splits };
  }
}
