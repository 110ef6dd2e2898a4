import type { RefundStatus, TransactionStatus } from '@payments/contracts';

/**
 * The only transitions a transaction may make (docs/contract.md, Resources). success and failed are final.
 * pending → failed covers expiry and a customer declining at checkout.
 */
const ALLOWED: Readonly<Record<TransactionStatus, readonly TransactionStatus[]>> = {
  pending: ['processing', 'failed'],
  processing: ['success', 'failed'],
  success: [],
  failed: [],
};

export function canTransition(from: TransactionStatus, to: TransactionStatus): boolean {
  return ALLOWED[from].includes(to);
}

export function isFinal(status: TransactionStatus): boolean {
  return ALLOWED[status].length === 0;
}

/** A refund is asked of the provider (pending), then settles once: success and failed are final. */
const REFUND_ALLOWED: Readonly<Record<RefundStatus, readonly RefundStatus[]>> = {
  pending: ['success', 'failed'],
  success: [],
  failed: [],
};

export function canRefundTransition(from: RefundStatus, to: RefundStatus): boolean {
  return REFUND_ALLOWED[from].includes(to);
}
