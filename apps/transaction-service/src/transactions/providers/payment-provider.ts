import { Inject, Injectable } from '@nestjs/common';
import type { TransactionRow } from '../transaction-store';

/**
 * The port every live payment adapter implements (one adapter per payment_method_code). Test mode
 * never reaches it: the SandboxProvider stands in. No live adapter ships yet, so every live
 * payment answers 422 payment_method_unavailable and stores nothing.
 */
export interface PaymentProvider {
  readonly code: string;
  /** Starts collection with the provider, after the pending transaction is committed. */
  initiate(transaction: TransactionRow): Promise<{ providerReference: string }>;
}

export const PAYMENT_PROVIDERS = Symbol('PAYMENT_PROVIDERS');

@Injectable()
export class ProviderRegistry {
  private readonly byCode: Map<string, PaymentProvider>;

  constructor(@Inject(PAYMENT_PROVIDERS) providers: PaymentProvider[]) {
    this.byCode = new Map(providers.map((p) => [p.code, p]));
  }

  /** The adapter for a code; with no code, whether the customer could pick any live method at all. */
  available(code: string | null): boolean {
    return code === null ? this.byCode.size > 0 : this.byCode.has(code);
  }
}
