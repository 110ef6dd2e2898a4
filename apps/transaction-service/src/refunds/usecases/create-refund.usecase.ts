import { Inject, Injectable } from '@nestjs/common';
import { DataSource, DeadlineExceededError, type TransactionManager } from '@payments/database';
import { ErrorCodes, type CreateRefundBody, type RefundView, type RpcRequest } from '@payments/contracts';
import { descriptionProblem, descriptionToStore, metadataProblems, metadataToStore } from '@payments/domain';
import type { Logger } from 'pino';
import { DomainException, ROOT_LOGGER } from '@payments/platform';
import { OutboxNotifier } from '@payments/messaging';
import { TransactionServiceConfig } from '../../config/transaction.config';
import { TransactionQueries } from '../../transactions/transaction-queries';
import { RefundStore, toRefundView } from '../refund-store';
import { ProviderPaymentStore } from '../../connectors/provider-payment-store';
import { PROVIDER_NAMES } from '../../connectors/connector';
import { ProviderRefundStore } from '../../connectors/provider-refund-store';
import { ProviderRefunds } from '../../connectors/provider-refunds';

/**
 * Refunds a successful transaction, in part or in full (no amount: all that is left). The transaction
 * row is locked while the refunds already made are summed, so two refunds at once can never exceed
 * the amount.
 */
@Injectable()
export class CreateRefundUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly transactions: TransactionQueries,
    private readonly store: RefundStore,
    private readonly outbox: OutboxNotifier,
    private readonly attempts: ProviderPaymentStore,
    private readonly providerRefunds: ProviderRefunds,
    private readonly providerRefundStore: ProviderRefundStore,
    @Inject(TransactionServiceConfig) private readonly config: TransactionServiceConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ ctx, body }: RpcRequest<CreateRefundBody>): Promise<RefundView> {
    const description = descriptionProblem(body.description);
    const problems = [...metadataProblems(body.metadata), ...(description ? [description] : [])];
    if (problems.length > 0)
      throw new DomainException(ErrorCodes.ValidationError, `${problems[0].field} ${problems[0].message}`, problems);
    // The caller gave up before this started: nothing is done (its retry runs it). Otherwise the
    // transaction is cancelled RPC_DEADLINE_MARGIN_MS after the caller's deadline.
    if (ctx.deadline_at !== undefined && Date.now() >= ctx.deadline_at) throw new DeadlineExceededError();
    const work = async (m: TransactionManager) => {
      const txn = await this.transactions.byReference(m, ctx.business_id, ctx.mode, body.transaction_reference, true);
      if (!txn)
        throw new DomainException(ErrorCodes.NotFound, `no transaction with reference ${body.transaction_reference}`);
      // A retry of a request that already made its refund (its answer was lost): that refund, as
      // it is now. The transaction's row lock orders this read after any refund of it in flight.
      if (ctx.idempotency_key) {
        const earlier = await this.store.byIdempotencyKey(m, ctx.business_id, ctx.mode, ctx.idempotency_key);
        if (earlier) return { row: earlier, created: false, viaApi: false };
      }
      if (txn.status !== 'success') {
        throw new DomainException(
          ErrorCodes.TransactionNotRefundable,
          `only successful transactions can be refunded; this one is ${txn.status}`,
        );
      }
      // A provider-collected payment is refunded there: by its refund API once this commits, or,
      // without one (Paynow), by an operator who then completes or fails the refund. The sandbox
      // settles neither.
      const attempt = await this.attempts.get(m, txn.id);
      if (!attempt && ctx.mode === 'live') {
        throw new DomainException(
          ErrorCodes.PaymentMethodUnavailable,
          `refunds through ${txn.payment_method_code ?? 'this method'} are not available for live payments yet`,
        );
      }
      const viaApi = attempt !== undefined && this.providerRefunds.hasRefundApi(attempt.provider);
      const byOperator = attempt !== undefined && !viaApi;
      const remaining = Number(txn.amount) - (await this.store.committed(m, txn.id));
      if (remaining <= 0) {
        throw new DomainException(ErrorCodes.RefundExceedsAmount, `nothing is left to refund of ${txn.amount}`, [
          { field: 'amount', message: 'nothing is left to refund' },
        ]);
      }
      const amount = body.amount ?? remaining;
      if (amount > remaining) {
        throw new DomainException(
          ErrorCodes.RefundExceedsAmount,
          `refund of ${amount} exceeds what is left to refund (${remaining} of ${txn.amount})`,
          [{ field: 'amount', message: `must be at most ${remaining}` }],
        );
      }
      const row = await this.store.insert(m, {
        transaction_id: txn.id,
        business_id: ctx.business_id,
        mode: ctx.mode,
        amount,
        currency: txn.currency,
        reason: body.reason ?? null,
        metadata: metadataToStore(body.metadata),
        description: descriptionToStore(body.description),
        settle_in: attempt ? null : this.config.SANDBOX_SETTLE_MS / 1000,
        message: byOperator
          ? `Waiting for an operator: ${attempt.provider} has no refund API, ` +
            `so the customer is refunded at ${attempt.provider} and the refund then completed here`
          : viaApi
            ? `Refund sent to ${PROVIDER_NAMES[attempt.provider]}`
            : undefined,
        idempotency_key: ctx.idempotency_key ?? null,
      });
      if (viaApi) await this.providerRefundStore.queue(m, row.id, attempt.provider);
      await this.store.recordCreated(m, row, ctx.request_id);
      return { row, created: true, viaApi };
    };
    const refund =
      ctx.deadline_at === undefined
        ? await this.ds.transaction(work)
        : await this.ds.transactionUntil(ctx.deadline_at + this.config.RPC_DEADLINE_MARGIN_MS, work);
    if (refund.created) this.outbox.notify();
    if (!refund.created || !refund.viaApi) return toRefundView(refund.row);
    // Committed: now to the provider, within the caller's deadline (a refund left queued is sent by the sweeper).
    const left = (ctx.deadline_at ?? Number.POSITIVE_INFINITY) - Date.now() - 1_000;
    if (left < 1_000) return toRefundView(refund.row);
    // The refund exists whatever happens now: a failure here answers it as it is (pending), never an error
    // a merchant would retry into a second refund; what was not sent, the sweeper sends.
    await this.providerRefunds
      .send(refund.row.id, Math.min(this.config.PROVIDER_TIMEOUT_MS, left))
      .catch((err: unknown) => {
        this.logger.error(
          { err, refund_id: refund.row.public_id },
          'sending the refund to its provider failed midway; it is answered pending',
        );
      });
    return toRefundView(await this.store.load(this.ds.manager, refund.row.id).catch(() => refund.row));
  }
}
