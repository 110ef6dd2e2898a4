import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import { ErrorCodes, type FetchTransactionBody, type RpcRequest, type TransactionView } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { TransactionQueries } from '../transaction-queries';
import { TransactionViews } from '../transaction-views';

/** One of the merchant's transactions by its id, with its refunds (another business's or mode's is not found). */
@Injectable()
export class FetchTransactionUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: TransactionQueries,
    private readonly views: TransactionViews,
  ) {}

  async execute({ ctx, body }: RpcRequest<FetchTransactionBody>): Promise<TransactionView> {
    const row = await this.queries.byPublicId(this.ds, ctx.business_id, ctx.mode, body.public_id);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no transaction ${body.public_id}`);
    const [view] = await this.views.of([row]);
    return view;
  }
}
