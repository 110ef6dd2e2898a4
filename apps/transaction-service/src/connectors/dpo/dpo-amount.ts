import { exponentOf, isSupportedCurrency } from '@payments/money';

/**
 * DPO amounts are major units with at most two decimals, converted from our minor units by 100, so
 * only currencies whose minor unit is a hundredth are sent: UGX (whole shillings) would be charged
 * a hundredth of its amount, a three-decimal currency ten times it.
 */
export function isDpoCurrency(code: string): boolean {
  return isSupportedCurrency(code) && exponentOf(code) === 2;
}

/** 1234 → "12.34"; 5 → "0.05". Exact (integer arithmetic); throws for a non-safe or negative integer. */
export function formatDpoAmount(minor: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0)
    throw new Error(`amount must be a non-negative safe integer, got ${minor}`);
  const digits = minor.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Digits, optionally grouped by commas in threes, then none, one or two decimals. No sign or exponent. */
const AMOUNT = /^(0|[1-9]\d*|[1-9]\d{0,2}(?:,\d{3})+)(?:\.(\d{1,2}))?$/;

/** "12.34" → 1234, "10.5" → 1050, "7" → 700, "1,000.00" → 100000; null for anything else or an unsafe integer. */
export function parseDpoAmount(text: string): number | null {
  const m = AMOUNT.exec(text.trim());
  if (m === null) return null;
  const minor = BigInt(m[1].replace(/,/g, '')) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}
