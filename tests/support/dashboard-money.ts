import type { DashboardClient } from './dashboard';
import type { Stack } from './stack';
import { waitFor } from './wait';

/** A ledger entry as the dashboard API shows it (/v1's fields plus kind and the payment's public id). */
export interface DashboardEntry {
  public_id: string;
  kind: 'split' | 'reversal';
  transaction_public_id: string;
  creditor_business_id: number;
  debtor_business_id: number;
  amount: number;
  currency: string;
  status: string;
  invoice_reference: string | null;
}

/** A customer pays a payment link on its hosted page by card (the sandbox settles it to success). */
export async function payThroughLink(stack: Stack, linkId: string, email = 'fan@example.com'): Promise<void> {
  const res = await stack.api('POST', '/checkout/pay', {
    rawBody: new URLSearchParams({
      checkout_id: linkId,
      action: 'pay',
      email,
      payment_method_code: 'zimswitch',
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (res.status >= 400) throw new Error(`paying link ${linkId} failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Waits until the link's payment has succeeded and the ledger has written `entries` split entries
 * for it, as the dashboard's payment page shows them; answers the payment's id and its entries.
 */
export async function linkPaymentWithEntries(
  c: DashboardClient,
  linkId: string,
  entries: number,
): Promise<{ transactionId: string; splitEntries: DashboardEntry[] }> {
  return waitFor(
    `the payment of ${linkId} and its ${entries} split entries`,
    async () => {
      const list = await c.get<{
        payments: { transaction_id: string; payment_link_id: string | null; status: string }[];
      }>('/dashboard/api/payments?status=success');
      const paid = list.body.payments?.find((p) => p.payment_link_id === linkId);
      if (!paid) return undefined;
      const detail = await c.get<{ split_entries: DashboardEntry[] | null }>(
        `/dashboard/api/payments/${paid.transaction_id}`,
      );
      const found = detail.body.split_entries;
      return found && found.length >= entries ? { transactionId: paid.transaction_id, splitEntries: found } : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 250 },
  );
}
