import {
  MOBILE_MONEY_NUMBER,
  MOBILE_MONEY_NUMBER_INPUT_PATTERN,
  isMobileMoneyNumber,
  normalizeMobileMoneyNumber,
} from './mobile-number';
import {
  PAYMENT_METHOD_CODES,
  PAYMENT_METHOD_TYPES,
  codesOfType,
  isPaymentMethodCode,
  settlesWithoutCustomer,
  typeOfCode,
} from './payment-methods';

describe('payment methods', () => {
  it('lists the codes of the contract, each with one of the two types', () => {
    expect(PAYMENT_METHOD_CODES).toEqual(['ecocash', 'innbucks', 'zimswitch', 'dpo', 'ozow']);
    expect(codesOfType('mobile_money')).toEqual(['ecocash', 'innbucks']);
    expect(codesOfType('card')).toEqual(['zimswitch', 'dpo', 'ozow']);
    for (const c of PAYMENT_METHOD_CODES) expect(PAYMENT_METHOD_TYPES).toContain(typeOfCode(c));
  });

  it.each([
    ['ecocash', true],
    ['ECOCASH', false],
    ['toString', false], // not an inherited property of the table
    [null, false],
  ])('isPaymentMethodCode(%p) is %p', (v, ok) => {
    expect(isPaymentMethodCode(v)).toBe(ok);
  });

  it('only mobile-money codes settle without the customer', () => {
    expect(settlesWithoutCustomer('innbucks')).toBe(true);
    expect(settlesWithoutCustomer('dpo')).toBe(false);
    expect(settlesWithoutCustomer(null)).toBe(false);
    expect(settlesWithoutCustomer('unknown')).toBe(false);
  });
});

describe('mobile-money number', () => {
  it.each([
    ['0771234', true], // 7 digits
    ['077123456789012', true], // 15 digits
    ['077123', false],
    ['0771234567890123', false],
    ['771234567', false],
    ['0771 234 567', false],
    [undefined, false],
  ])('%p is valid: %p', (v, ok) => {
    expect(isMobileMoneyNumber(v)).toBe(ok);
  });

  it('a number typed with spaces and dashes passes the page pattern and, normalized, the API rule', () => {
    const typed = '077-123 4567';
    expect(new RegExp(`^(?:${MOBILE_MONEY_NUMBER_INPUT_PATTERN})$`).test(typed)).toBe(true);
    expect(normalizeMobileMoneyNumber(typed)).toMatch(MOBILE_MONEY_NUMBER);
  });
});
