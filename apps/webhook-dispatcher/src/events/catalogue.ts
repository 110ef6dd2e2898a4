import type { TransactionStatusChangedData } from '@payments/contracts';

/** Every event name a callback may subscribe to (docs/contract.md, Webhooks). */
export const EVENT_CATALOGUE = [
  'payment.created',
  'payment.updated',
  'payment.completed',
  'transaction.pending',
  'transaction.processing',
  'transaction.success',
  'transaction.failed',
  'refund.pending',
  'refund.success',
  'refund.failed',
  'payout.created',
  'payout.completed',
] as const;
export type CatalogueEvent = (typeof EVENT_CATALOGUE)[number];

/**
 * The catalogue events one transaction status change stands for: `transaction.<status>` always;
 * `payment.created` on creation, `payment.updated` on every later change, `payment.completed` on success.
 */
export function catalogueEventsForTransaction(data: TransactionStatusChangedData): CatalogueEvent[] {
  const events: CatalogueEvent[] = [`transaction.${data.status}` as CatalogueEvent];
  events.push(data.previous_status === null ? 'payment.created' : 'payment.updated');
  if (data.status === 'success') events.push('payment.completed');
  return events;
}
