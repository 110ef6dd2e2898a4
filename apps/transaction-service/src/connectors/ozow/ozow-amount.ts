/**
 * Ozow amounts are decimals (9,2) in rand: "25.00". Ozow takes South African rand only (CountryCode
 * ZA, CurrencyCode ZAR), whose minor unit is the cent.
 */
export const OZOW_CURRENCY = 'ZAR';
export const OZOW_COUNTRY = 'ZA';

/** 2500 → "25.00"; 5 → "0.05". Exact (integer arithmetic); throws for a non-safe or negative integer. */
export function formatOzowAmount(minor: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0)
    throw new Error(`amount must be a non-negative safe integer, got ${minor}`);
  const digits = minor.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const AMOUNT = /^(0|[1-9]\d*)(?:\.(\d{1,2}))?$/;

/**
 * An amount as Ozow writes it: a string in a form post ("25.00", "25.5", "25") or a JSON number
 * (25, 25.5). Null for anything else: a sign, an exponent, a third decimal, beyond a safe integer.
 */
export function parseOzowAmount(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    const cents = Math.round(value * 100);
    // A JSON number with more than two decimals is not an amount Ozow writes.
    if (Math.abs(cents - value * 100) > 1e-6 * Math.max(1, value)) return null;
    text = formatOzowAmount(cents);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const m = AMOUNT.exec(text);
  if (m === null) return null;
  const minor = BigInt(m[1]) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}
