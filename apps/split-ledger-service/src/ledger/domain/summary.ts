import type { CounterpartyTotal, CurrencyTotal, LedgerSummaryResult } from '@payments/contracts';

/** Entries, or entry totals already grouped by (creditor, debtor, currency): summing is the same. */
export interface SummableAmount {
  creditorBusinessId: number;
  debtorBusinessId: number;
  currency: string;
  /** Signed: reversals are negative, so they subtract. */
  amount: number;
}

function totals(map: Map<string, bigint>): CurrencyTotal[] {
  return [...map.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, total]) => ({ currency, total: Number(total) }));
}

/**
 * What a business is owed (as creditor) and owes (as debtor) over the given amounts, per currency
 * and per counterparty and currency. A currency or counterparty with any amount appears even when
 * its total is 0.
 */
export function summarize(amounts: SummableAmount[], businessId: number): LedgerSummaryResult {
  const owed = new Map<string, bigint>();
  const owes = new Map<string, bigint>();
  const pairs = new Map<string, { business_id: number; currency: string; owed: bigint; owes: bigint }>();
  const pair = (other: number, currency: string) => {
    const key = `${other}:${currency}`;
    let p = pairs.get(key);
    if (!p) pairs.set(key, (p = { business_id: other, currency, owed: 0n, owes: 0n }));
    return p;
  };
  for (const a of amounts) {
    if (a.creditorBusinessId === businessId) {
      owed.set(a.currency, (owed.get(a.currency) ?? 0n) + BigInt(a.amount));
      pair(a.debtorBusinessId, a.currency).owed += BigInt(a.amount);
    }
    if (a.debtorBusinessId === businessId) {
      owes.set(a.currency, (owes.get(a.currency) ?? 0n) + BigInt(a.amount));
      pair(a.creditorBusinessId, a.currency).owes += BigInt(a.amount);
    }
  }
  const byCounterparty: CounterpartyTotal[] = [...pairs.values()]
    .sort((x, y) => x.business_id - y.business_id || (x.currency < y.currency ? -1 : x.currency > y.currency ? 1 : 0))
    .map((p) => ({
      business_id: p.business_id,
      currency: p.currency,
      owed_to_you: Number(p.owed),
      you_owe: Number(p.owes),
    }));
  return { owed_to_you: totals(owed), you_owe: totals(owes), by_counterparty: byCounterparty };
}
