import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import { ErrorCodes, type CreateSplitConfigBody, type RpcRequest, type SplitConfigView } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { splitConfigProblems } from '../domain/split-config-rules';
import { SplitConfigStore, toSplitConfigView } from '../split-config-store';

/**
 * Creates an active split config owned by the caller's business in the caller's mode. It applies
 * to that business's transactions in its currency created from now on. The partner's existence is
 * checked by the gateway (businesses live in its database).
 */
@Injectable()
export class CreateSplitConfigUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: SplitConfigStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<CreateSplitConfigBody>): Promise<SplitConfigView> {
    const description = body.description ?? null;
    const problems = splitConfigProblems({
      ownerBusinessId: ctx.business_id,
      partnerBusinessId: body.partner_business_id,
      type: body.split_type,
      value: body.split_value,
      role: body.split_role,
      currency: body.currency,
      description,
    });
    if (problems.length > 0)
      throw new DomainException(ErrorCodes.ValidationError, `${problems[0].field} ${problems[0].message}`, problems);
    const row = await this.ds.transaction((m) =>
      this.store.create(m, {
        owner_business_id: ctx.business_id,
        partner_business_id: body.partner_business_id,
        mode: ctx.mode,
        currency: body.currency,
        split_type: body.split_type,
        split_value: body.split_value,
        split_role: body.split_role,
        description,
      }),
    );
    return toSplitConfigView(row);
  }
}
