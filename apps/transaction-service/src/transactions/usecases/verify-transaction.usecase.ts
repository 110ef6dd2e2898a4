import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import { ErrorCodes, type RpcRequest, type TransactionView, type VerifyTransactionBody } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { TransactionQueries } from '../transaction-queries';
import { TransactionViews } from '../transaction-views';

@Injectable()
export class VerifyTransactionUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: TransactionQueries,
    private readonly views: TransactionViews,
  ) {}

  async execute({ ctx, body }: RpcRequest<VerifyTransactionBody>): Promise<TransactionView> {
    const row = await this.queries.byReference(this.ds, ctx.business_id, ctx.mode, body.reference);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no transaction with reference ${body.reference}`);
    const [view] = await this.views.of([row]);
    return view;
  }
}
