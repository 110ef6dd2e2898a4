/**
 * Paynow amounts are major units to two decimals, and Paynow takes no currency field: an
 * integration is for one currency, so only two-decimal currencies are accepted and the integration
 * must be the one set up for the transaction's currency.
 */
export const PAYNOW_CURRENCIES: readonly string[] = ['USD', 'ZWG'];

/** 1234 → "12.34"; 5 → "0.05". Exact (integer arithmetic); throws for a non-safe or negative integer. */
export function formatPaynowAmount(minor: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0)
    throw new Error(`amount must be a non-negative safe integer, got ${minor}`);
  const digits = minor.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * Integer part: digits without leading zeros, or grouped by commas in threes (the docs' poll example
 * writes a Paynow reference as "1,082", so an amount grouped the same way is read, unambiguously).
 * Fraction: none, one or two digits. Nothing else: no sign, exponent, spaces or a third decimal.
 */
const AMOUNT = /^(0|[1-9]\d*|[1-9]\d{0,2}(?:,\d{3})+)(?:\.(\d{1,2}))?$/;

/** "12.34" → 1234, "10.5" → 1050, "7" → 700; null for anything malformed or beyond a safe integer. */
export function parsePaynowAmount(text: string): number | null {
  const m = AMOUNT.exec(text.trim());
  if (m === null) return null;
  const minor = BigInt(m[1].replace(/,/g, '')) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}
