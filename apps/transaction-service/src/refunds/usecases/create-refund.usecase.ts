import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ErrorCodes, type CreateRefundBody, type RefundView, type RpcRequest } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { DomainException, publicId } from '@payments/platform';
import { OutboxNotifier } from '@payments/service-host';
import { TransactionServiceConfig } from '../../config/transaction.config';
import type { TransactionRow } from '../../transactions/transaction-store';
import { RefundStore, toRefundView } from '../refund-store';

/**
 * Refunds a successful transaction, in part or in full. The transaction row is locked while the
 * refunds already made are summed, so two refunds arriving together can never exceed the amount.
 */
@Injectable()
export class CreateRefundUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: RefundStore,
    private readonly outbox: OutboxNotifier,
    @Inject(TransactionServiceConfig) private readonly config: TransactionServiceConfig,
  ) {}

  async execute({ ctx, body }: RpcRequest<CreateRefundBody>): Promise<RefundView> {
    const refund = await this.ds.transaction(async (m) => {
      const [txn] = await queryRows<TransactionRow>(
        m,
        'SELECT * FROM transactions WHERE business_id = $1 AND mode = $2 AND reference = $3 FOR UPDATE',
        [ctx.business_id, ctx.mode, body.transaction_reference],
      );
      if (!txn) throw new DomainException(ErrorCodes.NotFound, `no transaction with reference ${body.transaction_reference}`);
      if (txn.status !== 'success') {
        throw new DomainException(ErrorCodes.TransactionNotRefundable, `only successful transactions can be refunded; this one is ${txn.status}`);
      }
      if (ctx.mode === 'live') {
        throw new DomainException(ErrorCodes.PaymentMethodUnavailable, `refunds through ${txn.payment_method_code ?? 'this method'} are not available for live payments yet`);
      }
      const [{ refunded }] = await queryRows<{ refunded: string }>(
        m,
        "SELECT COALESCE(sum(amount), 0) AS refunded FROM refunds WHERE transaction_id = $1 AND status <> 'failed'",
        [txn.id],
      );
      const remaining = Number(txn.amount) - Number(refunded);
      if (body.amount > remaining) {
        throw new DomainException(
          ErrorCodes.RefundExceedsAmount,
          `refund of ${body.amount} exceeds what is left to refund (${remaining} of ${txn.amount})`,
          [{ field: 'amount', message: `must be at most ${remaining}` }],
        );
      }
      const [inserted] = await queryRows<{ id: string }>(
        m,
        `INSERT INTO refunds (public_id, transaction_id, business_id, mode, amount, currency, status, message, settle_at)
         VALUES ($1,$2,$3,$4,$5,$6,'pending','Refund is being processed', now() + make_interval(secs => $7)) RETURNING id`,
        [publicId('rfd'), txn.id, ctx.business_id, ctx.mode, body.amount, txn.currency, this.config.SANDBOX_SETTLE_MS / 1000],
      );
      const row = await this.store.load(m, inserted.id);
      await this.store.recordCreated(m, row, ctx.request_id);
      return row;
    });
    this.outbox.notify();
    return toRefundView(refund);
  }
}
