import type { CurrencyTotal, LedgerSummaryResult } from '@payments/contracts';

/** Entries, or entry totals already grouped by (creditor, debtor, currency): summing is the same. */
export interface SummableAmount {
  creditorBusinessId: number;
  debtorBusinessId: number;
  currency: string;
  /** Signed: reversals are negative, so they subtract. */
  amount: number;
}

function totals(map: Map<string, bigint>): CurrencyTotal[] {
  return [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([currency, total]) => ({ currency, total: Number(total) }));
}

/**
 * A business's summary: what it is owed (as creditor) and what it owes (as debtor), per currency,
 * over the amounts given (the caller passes unsettled entries only). A currency appears when the
 * business has any such amount in it, even when the total is 0.
 */
export function summarize(amounts: SummableAmount[], businessId: number): LedgerSummaryResult {
  const owed = new Map<string, bigint>();
  const owes = new Map<string, bigint>();
  for (const a of amounts) {
    if (a.creditorBusinessId === businessId) owed.set(a.currency, (owed.get(a.currency) ?? 0n) + BigInt(a.amount));
    if (a.debtorBusinessId === businessId) owes.set(a.currency, (owes.get(a.currency) ?? 0n) + BigInt(a.amount));
  }
  return { owed_to_you: totals(owed), you_owe: totals(owes) };
}
