import type { Mode } from '@payments/contracts';

/** What one copy change adds to its business's totals on the UTC day the transaction was created. */
export interface DailyTotalsChange {
  business_id: number;
  mode: Mode;
  /** YYYY-MM-DD */
  date: string;
  currency: string;
  /** A new copy: one more payment. */
  created: boolean;
  /** The copy reached success: one more success, of this amount. */
  succeeded: boolean;
  /** Minor units, as text (bigint). */
  amount: string;
}

export interface DailyTotalsRow {
  business_id: number;
  mode: Mode;
  date: string;
  currency: string;
  payments: number;
  succeeded: number;
  succeeded_amount: number;
}

/** The changes summed per business, mode, day and currency, in that key order. */
export function sumDailyTotals(changes: DailyTotalsChange[]): DailyTotalsRow[] {
  const rows = new Map<string, DailyTotalsRow>();
  for (const c of changes) {
    const key = JSON.stringify([c.business_id, c.mode, c.date, c.currency]);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { business_id: c.business_id, mode: c.mode, date: c.date, currency: c.currency, payments: 0, succeeded: 0, succeeded_amount: 0 }));
    if (c.created) row.payments += 1;
    if (c.succeeded) {
      row.succeeded += 1;
      row.succeeded_amount += Number(c.amount);
    }
  }
  const order = (a: DailyTotalsRow, b: DailyTotalsRow) =>
    a.business_id - b.business_id || a.mode.localeCompare(b.mode) || a.date.localeCompare(b.date) || a.currency.localeCompare(b.currency);
  return [...rows.values()].sort(order);
}
