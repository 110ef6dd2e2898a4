import { Inject, Injectable } from '@nestjs/common';
import { parseFeeSchedule, type Fee } from '@payments/money';
import { TransactionServiceConfig } from '../config/transaction.config';

/** The configured fee per payment_method_code (FEE_SCHEDULE); `default` when no code is known. */
@Injectable()
export class FeeSchedule {
  private readonly fees: Record<string, Fee>;

  constructor(@Inject(TransactionServiceConfig) config: TransactionServiceConfig) {
    this.fees = parseFeeSchedule(config.FEE_SCHEDULE);
  }

  forCode(code: string | null | undefined): Fee {
    return (code && this.fees[code]) || this.fees.default || { bps: 0, fixed: 0 };
  }
}
