import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import { ErrorCodes, type RpcRequest, type SplitConfigView, type UpdateSplitConfigBody } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { splitConfigProblems } from '../domain/split-config-rules';
import { SplitConfigStore, toSplitConfigView, type SplitTerms } from '../split-config-store';

/**
 * Changes a config's type, value, role or description; the new terms apply only to transactions created after the
 * change, even if older ones succeed later. Partner and currency never change; inactive configs cannot be changed.
 */
@Injectable()
export class UpdateSplitConfigUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: SplitConfigStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<UpdateSplitConfigBody>): Promise<SplitConfigView> {
    const row = await this.ds.transaction(async (m) => {
      const current = await this.store.lockOwned(m, body.public_id, ctx.business_id, ctx.mode);
      if (!current.is_active) {
        throw new DomainException(
          ErrorCodes.ValidationError,
          'this split config has been deactivated and can no longer be changed; create a new one',
          [{ field: 'public_id', message: 'is deactivated' }],
        );
      }
      const next: SplitTerms = {
        split_type: body.split_type ?? current.split_type,
        split_value: body.split_value ?? Number(current.split_value),
        split_role: body.split_role ?? current.split_role,
        description: body.description === undefined ? current.description : body.description,
      };
      const problems = splitConfigProblems({
        ownerBusinessId: current.owner_business_id,
        partnerBusinessId: current.partner_business_id,
        type: next.split_type,
        value: next.split_value,
        role: next.split_role,
        currency: current.currency.trim(),
        description: next.description,
      });
      if (problems.length > 0)
        throw new DomainException(ErrorCodes.ValidationError, `${problems[0].field} ${problems[0].message}`, problems);
      const unchanged =
        next.split_type === current.split_type &&
        next.split_value === Number(current.split_value) &&
        next.split_role === current.split_role &&
        next.description === current.description;
      return unchanged ? current : this.store.update(m, current, next);
    });
    return toSplitConfigView(row);
  }
}
