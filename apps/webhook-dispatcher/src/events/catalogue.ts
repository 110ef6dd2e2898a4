import { EVENT_CATALOGUE, type CatalogueEvent, type TransactionStatusChangedData } from '@payments/contracts';

export { EVENT_CATALOGUE, type CatalogueEvent };

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
