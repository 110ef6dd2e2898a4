/**
 * The payment methods a merchant or customer can choose (docs/decisions/payment-methods.md): each code's type and the
 * name a customer reads, in one table for gateway validation, transaction-service and the checkout page.
 */
export const PAYMENT_METHOD_TYPES = ['mobile_money', 'card'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

export const PAYMENT_METHODS = {
  ecocash: { type: 'mobile_money', label: 'EcoCash' },
  innbucks: { type: 'mobile_money', label: 'InnBucks' },
  zimswitch: { type: 'card', label: 'ZimSwitch card' },
  dpo: { type: 'card', label: 'Card (DPO)' },
  ozow: { type: 'card', label: 'Ozow bank payment' },
} as const satisfies Record<string, { type: PaymentMethodType; label: string }>;

export type PaymentMethodCode = keyof typeof PAYMENT_METHODS;
export const PAYMENT_METHOD_CODES = Object.keys(PAYMENT_METHODS) as PaymentMethodCode[];

export function isPaymentMethodCode(v: unknown): v is PaymentMethodCode {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(PAYMENT_METHODS, v);
}

export function typeOfCode(code: PaymentMethodCode): PaymentMethodType {
  return PAYMENT_METHODS[code].type;
}

export function labelOfCode(code: PaymentMethodCode): string {
  return PAYMENT_METHODS[code].label;
}

/** The codes of one type, in table order. */
export function codesOfType(type: PaymentMethodType): PaymentMethodCode[] {
  return PAYMENT_METHOD_CODES.filter((c) => typeOfCode(c) === type);
}

export function settlesWithoutCustomer(code: string | null): boolean {
  return code !== null && isPaymentMethodCode(code) && typeOfCode(code) === 'mobile_money';
}
