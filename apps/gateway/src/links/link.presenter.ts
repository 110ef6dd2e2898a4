import { annotationsOf, type LinkView } from '@payments/contracts';
import { checkoutUrl } from '../transactions/transaction.presenter';
import type { LinkObject } from '../transactions/transaction.responses';

/**
 * A payment link as GET /v1/links and GET /v1/links/{id} show it: the create response's names
 * (payment_link_id, hosted_payment_link) plus what the link holds. Amounts in minor units.
 * `is_active` repeats `active` for integrations that use the spec's boolean naming.
 */
export function presentLinkObject(l: LinkView, checkoutBaseUrl: string): LinkObject {
  return {
    payment_link_id: l.payment_link_id,
    hosted_payment_link: checkoutUrl(checkoutBaseUrl, l.payment_link_id),
    amount: l.amount,
    charges: l.charges,
    total: l.total,
    currency: l.currency,
    description: l.description,
    metadata: annotationsOf(l).metadata,
    splits: l.splits.map((s) => ({
      business_id: s.business_id,
      type: s.type,
      value: s.value,
      description: s.description ?? null,
    })),
    success_url: l.success_url,
    failure_url: l.failure_url,
    active: l.active,
    is_active: l.active,
    date_created: l.date_created,
    date_updated: l.date_updated,
    date_deactivated: l.date_deactivated,
  };
}
