import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import { ErrorCodes, type ListRefundsBody, type ListRefundsResult, type RpcRequest } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { TransactionQueries } from '../../transactions/transaction-queries';
import { RefundStore, toRefundView } from '../refund-store';

/** The refunds of one of the merchant's transactions, oldest first: all (a transaction has few), or one cursor page. */
@Injectable()
export class ListRefundsUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly transactions: TransactionQueries,
    private readonly store: RefundStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<ListRefundsBody>): Promise<ListRefundsResult> {
    const txn = await this.transactions.byReference(this.ds, ctx.business_id, ctx.mode, body.transaction_reference);
    if (!txn)
      throw new DomainException(ErrorCodes.NotFound, `no transaction with reference ${body.transaction_reference}`);
    const { rows, hasMore } = await this.store.forTransaction(this.ds, txn, body);
    return { refunds: rows.map(toRefundView), has_more: hasMore };
  }
}
