import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ErrorCodes,
  type InitializeTransactionBody,
  type InitializeTransactionResult,
  type RpcRequest,
} from '@payments/contracts';
import { computeCharges, parseFeeSchedule, type Fee } from '@payments/money';
import { DomainException, publicId } from '@payments/platform';
import { OutboxNotifier } from '@payments/service-host';
import { TransactionServiceConfig, durationMs } from '../../config/transaction.config';
import { initializeProblems } from '../domain/initialize-rules';
import { isPaymentMethodCode, settlesWithoutCustomer, typeOfCode } from '../domain/payment-methods';
import { TransactionStore, type TransactionRow } from '../transaction-store';

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class InitializeTransactionUseCase {
  private readonly fees: Record<string, Fee>;
  private readonly liveProviders: Set<string>;

  constructor(
    private readonly ds: DataSource,
    private readonly store: TransactionStore,
    private readonly outbox: OutboxNotifier,
    @Inject(TransactionServiceConfig) private readonly config: TransactionServiceConfig,
  ) {
    this.fees = parseFeeSchedule(config.FEE_SCHEDULE);
    this.liveProviders = new Set(config.LIVE_PROVIDERS.split(',').map((s) => s.trim()).filter(Boolean));
  }

  feeFor(code: string | undefined): Fee {
    return (code && this.fees[code]) || this.fees.default || { bps: 0, fixed: 0 };
  }

  async execute({ ctx, body }: RpcRequest<InitializeTransactionBody>): Promise<InitializeTransactionResult> {
    const problems = initializeProblems(body, ctx.mode);
    if (problems.length > 0) {
      throw new DomainException(ErrorCodes.ValidationError, `${problems[0].field} ${problems[0].message}`, problems);
    }
    const code = body.payment_method_code ?? null;
    if (ctx.mode === 'live' && (code === null ? this.liveProviders.size === 0 : !this.liveProviders.has(code))) {
      throw new DomainException(
        ErrorCodes.PaymentMethodUnavailable,
        code ? `payment method ${code} is not available for live payments yet` : 'no payment method is available for live payments yet',
      );
    }
    const type = body.payment_method_type ?? (code && isPaymentMethodCode(code) ? typeOfCode(code) : null);
    const charges = computeCharges(body.amount, this.feeFor(code ?? undefined));
    const reference = body.transaction_reference ?? publicId('ref', 20);
    const sandboxSettles = ctx.mode === 'test' && settlesWithoutCustomer(code);

    const row = await this.ds
      .transaction(async (m) => {
        const inserted: TransactionRow[] = await m.query(
          `INSERT INTO transactions (public_id, business_id, mode, reference, amount, charges, total, currency, email,
             payment_method_type, payment_method_code, mobile_money_number, requested_response, status, message,
             checkout_id, success_url, failure_url, expires_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,'pending',$14,$15,$16,$17, now() + make_interval(secs => $18))
           RETURNING *`,
          [
            publicId('txn'),
            ctx.business_id,
            ctx.mode,
            reference,
            body.amount,
            charges,
            body.amount + charges,
            body.currency,
            body.email,
            type,
            code,
            body.mobile_money_number ?? null,
            body.requested_response ?? null,
            sandboxSettles ? 'Payment request sent' : 'Awaiting payment',
            publicId('chk'),
            body.success_url ?? null,
            body.failure_url ?? null,
            durationMs(this.config.TRANSACTION_EXPIRY) / 1000,
          ],
        );
        let current = inserted[0];
        await this.store.recordCreated(m, current, ctx.request_id);
        if (sandboxSettles) {
          // The sandbox "sends the prompt to the phone" at once; the settler finishes it later.
          const settleAt = new Date(Date.now() + this.config.SANDBOX_SETTLE_MS);
          current = await this.store.changeStatus(m, current, 'processing', 'Awaiting customer approval on the handset', ctx.request_id, { settleAt });
        }
        return current;
      })
      .catch((err) => {
        if ((err as { code?: string }).code === UNIQUE_VIOLATION && /reference/.test((err as { constraint?: string }).constraint ?? '')) {
          throw new DomainException(ErrorCodes.DuplicateReference, `transaction_reference ${reference} has already been used`, [
            { field: 'transaction_reference', message: 'has already been used' },
          ]);
        }
        throw err;
      });
    this.outbox.notify();

    return {
      transaction_id: row.public_id,
      transaction_reference: row.reference,
      amount: Number(row.amount),
      charges: Number(row.charges),
      total: Number(row.total),
      currency: row.currency,
      status: row.status,
      message: sandboxSettles ? 'Payment request sent to the customer' : 'Transaction initialized; the customer completes it on the checkout page',
      checkout_url: sandboxSettles ? null : row.checkout_id,
    };
  }
}
