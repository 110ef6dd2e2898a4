/**
 * Supported currencies and their ISO 4217 minor-unit exponents. Amounts are always integers in
 * minor units; major units appear only where the spec asks for them (initialize total, list amount).
 */
export const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = {
  USD: 2,
  ZWG: 2,
  ZAR: 2,
  BWP: 2,
  ZMW: 2,
  MZN: 2,
  NAD: 2,
  KES: 2,
  NGN: 2,
  GHS: 2,
  EUR: 2,
  GBP: 2,
  JPY: 0,
  UGX: 0,
  RWF: 0,
  BHD: 3,
  KWD: 3,
};

export const SUPPORTED_CURRENCIES = Object.keys(CURRENCY_EXPONENTS);

export function isSupportedCurrency(code: unknown): code is string {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(CURRENCY_EXPONENTS, code);
}

export function exponentOf(currency: string): number {
  if (!isSupportedCurrency(currency)) throw new Error(`unsupported currency ${currency}`);
  return CURRENCY_EXPONENTS[currency];
}

/** Exact decimal string in major units: 12345 USD → "123.45", 5 JPY → "5", -7 USD → "-0.07". */
export function toMajorString(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new Error(`amount must be a safe integer, got ${minor}`);
  const exp = exponentOf(currency);
  const negative = minor < 0;
  const digits = Math.abs(minor).toString();
  if (exp === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(exp + 1, '0');
  return `${negative ? '-' : ''}${padded.slice(0, -exp)}.${padded.slice(-exp)}`;
}

/** Major units as a JSON number (the spec's initialize `total`); exact for any safe integer input. */
export function toMajorNumber(minor: number, currency: string): number {
  return Number(toMajorString(minor, currency));
}

/**
 * Largest amount accepted anywhere, in minor units (10^12: ten billion dollars in cents). Far below
 * 2^53, so amount + charges and every sum the ledger makes stay exact JavaScript integers.
 */
export const MAX_AMOUNT = 1_000_000_000_000;
