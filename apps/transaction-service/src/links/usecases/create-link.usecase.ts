import { Injectable } from '@nestjs/common';
import { ErrorCodes, type CreateLinkBody, type LinkSplit, type LinkView, type RpcRequest } from '@payments/contracts';
import { bpsShareFloor, computeCharges, isSupportedCurrency } from '@payments/money';
import { descriptionProblem, metadataProblems, metadataToStore } from '@payments/domain';
import { DomainException } from '@payments/platform';
import { FeeSchedule } from '../../transactions/fee-schedule';
import { LinkStore, toLinkView } from '../link-store';

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
    private readonly links: LinkStore,
    private readonly fees: FeeSchedule,
  ) {}

  async execute({ ctx, body }: RpcRequest<CreateLinkBody>): Promise<LinkView> {
    if (!isSupportedCurrency(body.currency))
      throw new DomainException(ErrorCodes.ValidationError, 'currency is not supported', [
        { field: 'currency', message: 'is not supported' },
      ]);
    const description = descriptionProblem(body.description, 'description', { required: true });
    const problems = [...(description ? [description] : []), ...metadataProblems(body.metadata)];
    if (problems.length > 0)
      throw new DomainException(ErrorCodes.ValidationError, `${problems[0].field} ${problems[0].message}`, problems);
    const splits = body.splits ?? [];
    if (splits.some((s) => s.business_id === ctx.business_id)) {
      throw new DomainException(ErrorCodes.ValidationError, 'a split cannot pay the link owner itself', [
        { field: 'splits', message: 'business_id must be another business' },
      ]);
    }
    if (splitsTotal(body.amount, splits) > body.amount) {
      throw new DomainException(ErrorCodes.ValidationError, 'the splits add up to more than the amount', [
        { field: 'splits', message: 'must not add up to more than amount' },
      ]);
    }
    const charges = computeCharges(body.amount, this.fees.forCode(null));
    const row = await this.links.create({
      business_id: ctx.business_id,
      mode: ctx.mode,
      amount: body.amount,
      charges,
      currency: body.currency,
      description: body.description,
      metadata: metadataToStore(body.metadata),
      splits,
      success_url: body.success_url ?? null,
      failure_url: body.failure_url ?? null,
    });
    return toLinkView(row);
  }
}
