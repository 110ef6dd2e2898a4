import { Inject, Injectable } from '@nestjs/common';
import type { TransactionManager } from '@payments/database';
import { TransactionServiceConfig } from '../../config/transaction.config';
import { typeOfCode, isPaymentMethodCode } from '@payments/domain';
import { TransactionStore, type FirstStep, type TransactionRow } from '../transaction-store';

/**
 * The test-mode payment provider. Mobile money processes, then settles after SANDBOX_SETTLE_MS (success, or failed if
 * `requested_response=failed`); a card or redirect payment confirmed on the checkout page is authorised at once.
 */
@Injectable()
export class SandboxProvider {
  constructor(
    private readonly store: TransactionStore,
    @Inject(TransactionServiceConfig) private readonly config: TransactionServiceConfig,
  ) {}

  /**
   * Where a new payment with this method goes at once, without the customer: a mobile-money
   * prompt is processing until the scheduler settles it. Null for any other method.
   */
  firstStep(code: string | null): FirstStep | null {
    if (!code || !isPaymentMethodCode(code) || typeOfCode(code) !== 'mobile_money') return null;
    return {
      status: 'processing',
      message: 'Awaiting customer approval on the handset',
      settle_at: new Date(Date.now() + this.config.SANDBOX_SETTLE_MS),
    };
  }

  async start(m: TransactionManager, row: TransactionRow, correlationId: string | null): Promise<TransactionRow> {
    const first = this.firstStep(row.payment_method_code);
    if (first)
      return this.store.changeStatus(m, row, first.status, first.message, correlationId, { settleAt: first.settle_at });
    const processing = await this.store.changeStatus(m, row, 'processing', 'Authorising the payment', correlationId);
    return row.requested_response === 'failed'
      ? this.store.changeStatus(m, processing, 'failed', 'Payment declined by the issuer', correlationId)
      : this.store.changeStatus(m, processing, 'success', 'Payment successful', correlationId);
  }
}
