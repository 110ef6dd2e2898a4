import type { Mode } from '@payments/contracts';

export interface NettableEntry {
  id: number;
  mode: Mode;
  debtorBusinessId: number;
  creditorBusinessId: number;
  currency: string;
  /** Signed: a reversal is negative. */
  amount: number;
}

/** One invoice of a settlement run: `debtor` pays `creditor` the net `amount` (≥ 0) of `entryIds`. */
export interface PlannedInvoice {
  mode: Mode;
  debtorBusinessId: number;
  creditorBusinessId: number;
  currency: string;
  amount: number;
  entryIds: number[];
}

/**
 * Nets pending entries into one invoice per pair of businesses, currency and mode, both directions counted (A owes B
 * 300, B owes A 100 → A pays B 200), never negative; a net of 0 goes from the lower id to the higher. Every entry lands
 * in exactly one invoice. Pure and deterministic.
 */
export function netEntries(entries: NettableEntry[]): PlannedInvoice[] {
  const groups = new Map<
    string,
    { mode: Mode; currency: string; low: number; high: number; net: bigint; ids: number[] }
  >();
  for (const e of entries) {
    if (e.debtorBusinessId === e.creditorBusinessId) throw new Error(`entry ${e.id} has the same debtor and creditor`);
    const low = Math.min(e.debtorBusinessId, e.creditorBusinessId);
    const high = Math.max(e.debtorBusinessId, e.creditorBusinessId);
    const key = `${e.mode}|${e.currency}|${low}|${high}`;
    const g = groups.get(key) ?? { mode: e.mode, currency: e.currency, low, high, net: 0n, ids: [] };
    // net > 0: low owes high.
    g.net += e.debtorBusinessId === low ? BigInt(e.amount) : -BigInt(e.amount);
    g.ids.push(e.id);
    groups.set(key, g);
  }
  return [...groups.values()]
    .map((g) => ({
      mode: g.mode,
      currency: g.currency,
      debtorBusinessId: g.net >= 0n ? g.low : g.high,
      creditorBusinessId: g.net >= 0n ? g.high : g.low,
      amount: Number(g.net >= 0n ? g.net : -g.net),
      entryIds: [...g.ids].sort((a, b) => a - b),
    }))
    .sort(
      (a, b) =>
        a.mode.localeCompare(b.mode) ||
        a.currency.localeCompare(b.currency) ||
        a.debtorBusinessId - b.debtorBusinessId ||
        a.creditorBusinessId - b.creditorBusinessId,
    );
}

/**
 * `INV-<YYYYMMDD>-<debtor>-<creditor>-<CUR>-<TEST|LIVE>-<n>`: the UTC day the period ended, the
 * pair, the currency, the mode, and n = 1, 2, … for further invoices of the same pair that day
 * (INVOICE_REFERENCE_PATTERN in the contracts lib).
 */
export function invoiceReference(periodEnd: Date, inv: InvoiceParties, n: number): string {
  return `${invoiceReferencePrefix(periodEnd, inv)}${n}`;
}

type InvoiceParties = Pick<PlannedInvoice, 'debtorBusinessId' | 'creditorBusinessId' | 'currency' | 'mode'>;

/** The reference without its sequence number, to count the pair's invoices of that day. */
export function invoiceReferencePrefix(periodEnd: Date, inv: InvoiceParties): string {
  const day = periodEnd.toISOString().slice(0, 10).replace(/-/g, '');
  return `INV-${day}-${inv.debtorBusinessId}-${inv.creditorBusinessId}-${inv.currency}-${inv.mode.toUpperCase()}-`;
}
