/** A mobile-money number as the API accepts it: a leading 0, then 6 to 14 digits (7 to 15 in all). */
export const MOBILE_MONEY_NUMBER = /^0\d{6,14}$/;

/** The rule in words, after the field name in error messages. */
export const MOBILE_MONEY_NUMBER_RULE = 'must start with 0 and contain 7 to 15 digits';

/**
 * The checkout page's HTML `pattern`: looser, because a customer may type spaces or dashes between
 * digits; the service normalizes and then applies MOBILE_MONEY_NUMBER.
 */
export const MOBILE_MONEY_NUMBER_INPUT_PATTERN = '0[0-9 -]{6,20}';

export function isMobileMoneyNumber(v: unknown): v is string {
  return typeof v === 'string' && MOBILE_MONEY_NUMBER.test(v);
}

/** What a customer typed on the checkout page, without the spaces and dashes. */
export function normalizeMobileMoneyNumber(typed: string): string {
  return typed.replace(/[\s-]/g, '');
}
