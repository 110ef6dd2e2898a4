import type { DailyTotal, DashboardApi } from '@payments/contracts';

export type DayTotals = DashboardApi.DayTotals;

/** One entry per UTC day from `from` to `to` (both YYYY-MM-DD), days without payments included. */
export function totalsByDay(totals: DailyTotal[], from: string, to: string): DayTotals[] {
  const days = new Map<string, DayTotals>();
  for (
    let d = new Date(`${from}T00:00:00Z`);
    d.toISOString().slice(0, 10) <= to;
    d = new Date(d.getTime() + 86_400_000)
  ) {
    const date = d.toISOString().slice(0, 10);
    days.set(date, { date, payments: 0, succeeded: 0, volume: {} });
  }
  for (const t of totals) {
    const day = days.get(t.date);
    if (!day) continue;
    day.payments += t.payments;
    day.succeeded += t.succeeded;
    if (t.succeeded > 0) day.volume[t.currency] = (day.volume[t.currency] ?? 0) + t.succeeded_amount;
  }
  return [...days.values()];
}
