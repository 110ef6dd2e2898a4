import type { TransactionStatus } from '@payments/contracts';

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
