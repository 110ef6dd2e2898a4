/**
 * Which payment_method_code goes with which payment_method_type (docs/decisions/payment-methods.md).
 * Mobile-money codes settle in the sandbox on their own; card and redirect codes wait for the
 * customer on the hosted checkout page.
 */
export const PAYMENT_METHODS = {
  ecocash: 'mobile_money',
  innbucks: 'mobile_money',
  zimswitch: 'card',
  dpo: 'card',
  ozow: 'card',
} as const;

export type PaymentMethodCode = keyof typeof PAYMENT_METHODS;
export type PaymentMethodType = (typeof PAYMENT_METHODS)[PaymentMethodCode];
export const PAYMENT_METHOD_CODES = Object.keys(PAYMENT_METHODS) as PaymentMethodCode[];
export const PAYMENT_METHOD_TYPES: readonly PaymentMethodType[] = ['mobile_money', 'card'];

export function isPaymentMethodCode(v: unknown): v is PaymentMethodCode {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(PAYMENT_METHODS, v);
}

export function typeOfCode(code: PaymentMethodCode): PaymentMethodType {
  return PAYMENT_METHODS[code];
}

export function settlesWithoutCustomer(code: string | null): boolean {
  return code !== null && isPaymentMethodCode(code) && typeOfCode(code) === 'mobile_money';
}
