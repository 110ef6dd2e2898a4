import type {
  ReconcileCallback,
  ReconcileLedgerTransaction,
  ReconcileTransaction,
  ReconcileWebhookEvent,
  TransactionStatus,
} from '@payments/contracts';
import { refundedShare } from '@payments/money';

const successfulRefunds = (refunds: { id: string; amount: number; status: string }[]) =>
  new Map(refunds.filter((r) => r.status === 'success').map((r) => [r.id, r.amount]));

/**
 * Differences between transaction-service's record of one transaction and the ledger's and the
 * webhook dispatcher's: statuses, split entries, successful refunds and their reversals.
 */
export function transactionDifferences(
  t: ReconcileTransaction,
  ledger: ReconcileLedgerTransaction | undefined,
  webhookStatus: TransactionStatus | undefined,
  eventsRetainedSince?: string,
): string[] {
  const name = `transaction ${t.transaction_id} (${t.status})`;
  const out: string[] = [];
  // Its last event is past webhook-dispatcher's EVENT_RETENTION: pruned, nothing to compare.
  const pruned = eventsRetainedSince !== undefined && Date.parse(t.updated_at) < Date.parse(eventsRetainedSince);
  if (!pruned && webhookStatus === undefined) out.push(`${name}: webhook-dispatcher recorded no transaction event`);
  else if (!pruned && webhookStatus !== t.status)
    out.push(`${name}: webhook-dispatcher's latest event is transaction.${webhookStatus}`);
  if (!ledger) return [...out, `${name}: split-ledger-service has no record of it`];
  if (ledger.status !== t.status) out.push(`${name}: split-ledger-service recorded ${ledger.status}`);
  if (t.status !== 'success') {
    if (ledger.splits.length > 0)
      out.push(`${name}: ${ledger.splits.length} ledger entries for a transaction that did not succeed`);
    return out;
  }
  const written = new Map<string, { amount: number; reversed: number }[]>();
  for (const s of ledger.splits) written.set(s.key, [...(written.get(s.key) ?? []), s]);
  for (const e of ledger.expected) {
    const entries = written.get(e.key) ?? [];
    if (entries.length !== 1)
      out.push(`${name}: ${entries.length} ledger entries for split ${e.key}, expected exactly 1`);
    else if (entries[0].amount !== e.amount)
      out.push(`${name}: ledger entry for split ${e.key} is ${entries[0].amount}, its rule gives ${e.amount}`);
  }
  const expectedKeys = new Set(ledger.expected.map((e) => e.key));
  for (const key of written.keys())
    if (!expectedKeys.has(key)) out.push(`${name}: ledger entry for split ${key}, which does not apply to it`);

  const refunds = successfulRefunds(t.refunds);
  const ledgerRefunds = successfulRefunds(ledger.refunds);
  for (const [id, amount] of refunds) {
    if (ledgerRefunds.get(id) !== amount)
      out.push(
        `${name}: refund ${id} of ${amount} succeeded; split-ledger-service recorded ` +
          (ledgerRefunds.has(id) ? `${ledgerRefunds.get(id)}` : 'no successful refund'),
      );
  }
  for (const id of ledgerRefunds.keys())
    if (!refunds.has(id))
      out.push(`${name}: split-ledger-service has refund ${id} as successful; transaction-service does not`);
  const refunded = [...refunds.values()].reduce((a, b) => a + b, 0);
  for (const s of ledger.splits) {
    const due = refundedShare(s.amount, refunded, t.amount);
    if (s.reversed !== due)
      out.push(
        `${name}: split ${s.key} of ${s.amount} reversed by ${s.reversed}; ${refunded} refunded makes it ${due}`,
      );
  }
  return out;
}

/**
 * Differences for one catalogue event: every callback that is active now, of the event's business
 * and mode, subscribed to its type and registered before it, has exactly one delivery of it.
 */
export function deliveryDifferences(e: ReconcileWebhookEvent, callbacks: ReconcileCallback[]): string[] {
  const out: string[] = [];
  for (const c of callbacks) {
    if (
      c.deleted ||
      !c.is_active ||
      c.business_id !== e.business_id ||
      c.mode !== e.mode ||
      !c.events.includes(e.event_type)
    )
      continue;
    if (Date.parse(c.created_at) > Date.parse(e.created_at)) continue;
    const n = e.delivered_to.filter((id) => id === c.id).length;
    if (n !== 1)
      out.push(`event ${e.event_id} (${e.event_type}): ${n} deliveries to callback ${c.id}, expected exactly 1`);
  }
  return out;
}
