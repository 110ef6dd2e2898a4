import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCodes,
  type InitializeTransactionBody,
  type InitializeTransactionResult,
  type RpcRequest,
} from '@payments/contracts';
import { computeCharges } from '@payments/money';
import { DomainException, publicId } from '@payments/platform';
import { OutboxNotifier } from '@payments/messaging';
import { TransactionServiceConfig, durationMs } from '../../config/transaction.config';
import {
  descriptionToStore,
  initializeProblems,
  isPaymentMethodCode,
  metadataToStore,
  settlesWithoutCustomer,
  typeOfCode,
} from '@payments/domain';
import { FeeSchedule } from '../fee-schedule';
import { LivePayments, type ProviderAnswer } from '../../connectors/live-payments';
import { SandboxProvider } from '../sandbox/sandbox-provider';
import { TransactionInsertBatch } from '../transaction-insert-batch';
import { TransactionQueries } from '../transaction-queries';
import type { TransactionRow } from '../transaction-store';
import { DataSource, DeadlineExceededError } from '@payments/database';

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class InitializeTransactionUseCase {
  constructor(
    private readonly inserts: TransactionInsertBatch,
    private readonly outbox: OutboxNotifier,
    private readonly fees: FeeSchedule,
    private readonly sandbox: SandboxProvider,
    private readonly live: LivePayments,
    private readonly queries: TransactionQueries,
    private readonly ds: DataSource,
    @Inject(TransactionServiceConfig) private readonly config: TransactionServiceConfig,
  ) {}

  async execute({ ctx, body }: RpcRequest<InitializeTransactionBody>): Promise<InitializeTransactionResult> {
    // The caller gave up before this started: nothing is done (its retry runs it).
    if (ctx.deadline_at !== undefined && Date.now() >= ctx.deadline_at) throw new DeadlineExceededError();
    // The gateway refuses this too; a public key must never choose the reference (it could squat the merchant's).
    const problems =
      ctx.key_type === 'public' && body.transaction_reference !== undefined
        ? [{ field: 'transaction_reference', message: 'cannot be set with a public key' }]
        : initializeProblems(body, ctx.mode);
    if (problems.length > 0) {
      throw new DomainException(ErrorCodes.ValidationError, `${problems[0].field} ${problems[0].message}`, problems);
    }
    const code = body.payment_method_code ?? null;
    // The method's provider with the business's credentials (a live payment without them is a
    // 422); null in test mode without a test connection: the sandbox.
    const route = await this.live.route(ctx.business_id, ctx.mode, code);
    const type = body.payment_method_type ?? (code && isPaymentMethodCode(code) ? typeOfCode(code) : null);
    const charges = computeCharges(body.amount, this.fees.forCode(code));
    const reference = body.transaction_reference ?? publicId('ref', 20);
    const sandboxSettles = route === null && settlesWithoutCustomer(code);

    // On the pool in a transaction of its own: the row and its events (the sandbox's first step included) are written
    // together or not at all. Under load it carries other initializes' rows too (TransactionInsertBatch).
    let reused = false;
    let row = await this.inserts
      .create(
        {
          business_id: ctx.business_id,
          mode: ctx.mode,
          reference,
          amount: body.amount,
          charges,
          currency: body.currency,
          email: body.email,
          payment_method_type: type,
          payment_method_code: code,
          mobile_money_number: body.mobile_money_number ?? null,
          requested_response: body.requested_response ?? null,
          message: sandboxSettles ? 'Payment request sent' : 'Awaiting payment',
          success_url: body.success_url ?? null,
          failure_url: body.failure_url ?? null,
          metadata: metadataToStore(body.metadata),
          description: descriptionToStore(body.description),
          expires_in: durationMs(this.config.TRANSACTION_EXPIRY) / 1000,
          then: sandboxSettles ? (this.sandbox.firstStep(code) ?? undefined) : undefined,
          idempotency_key: ctx.idempotency_key ?? null,
          deadline_at: ctx.deadline_at,
        },
        ctx.request_id,
      )
      .catch(async (err): Promise<TransactionRow> => {
        if ((err as { code?: string }).code === UNIQUE_VIOLATION && ctx.idempotency_key) {
          // A retry of a request that already created its transaction (its first answer was lost):
          // the same transaction, as it is now. Checked whichever unique index the insert met
          // first: the retry of a request with a transaction_reference meets that one too.
          const existing = await this.queries.byIdempotencyKey(this.ds, ctx.business_id, ctx.mode, ctx.idempotency_key);
          if (existing) {
            reused = true;
            return existing;
          }
        }
        if (
          (err as { code?: string }).code === UNIQUE_VIOLATION &&
          /reference/.test((err as { constraint?: string }).constraint ?? '')
        ) {
          throw new DomainException(
            ErrorCodes.DuplicateReference,
            `transaction_reference ${reference} has already been used`,
            [{ field: 'transaction_reference', message: 'has already been used' }],
          );
        }
        throw err;
      });
    this.outbox.notify();
    let answer: ProviderAnswer = {};
    if (route)
      ({ row, answer } = reused ? await this.live.resume(route, row, ctx) : await this.live.start(route, row, ctx));

    return {
      ...answer,
      transaction_id: row.public_id,
      transaction_reference: row.reference,
      amount: Number(row.amount),
      charges: Number(row.charges),
      total: Number(row.total),
      currency: row.currency,
      status: row.status,
      message: route
        ? row.message
        : sandboxSettles
          ? 'Payment request sent to the customer'
          : 'Transaction initialized; the customer completes it on the checkout page',
      checkout_id: route || sandboxSettles ? null : row.checkout_id,
      metadata: row.metadata,
      description: row.description,
    };
  }
}
