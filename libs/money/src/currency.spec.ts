import fc from 'fast-check';
import {
  CURRENCY_EXPONENTS,
  SUPPORTED_CURRENCIES,
  exponentOf,
  isSupportedCurrency,
  toMajorNumber,
  toMajorString,
} from './currency';

describe('toMajorString', () => {
  it.each([
    [12345, 'USD', '123.45'],
    [5, 'USD', '0.05'],
    [50, 'USD', '0.50'],
    [100, 'USD', '1.00'],
    [0, 'USD', '0.00'],
    [-7, 'USD', '-0.07'],
    [-12345, 'EUR', '-123.45'],
    [5, 'JPY', '5'],
    [0, 'JPY', '0'],
    [1015, 'JPY', '1015'],
    [-42, 'UGX', '-42'],
    [1, 'BHD', '0.001'],
    [12345, 'BHD', '12.345'],
    [1000, 'KWD', '1.000'],
    [-1, 'KWD', '-0.001'],
    [Number.MAX_SAFE_INTEGER, 'USD', '90071992547409.91'],
  ])('%i %s → %s', (minor, currency, expected) => {
    expect(toMajorString(minor, currency)).toBe(expected);
  });

  it('does not write a negative zero', () => {
    expect(toMajorString(-0, 'USD')).toBe('0.00');
  });

  it.each(['XXX', 'usd', '', 'US'])('throws for the unsupported currency %p', (currency) => {
    expect(() => toMajorString(100, currency)).toThrow(/unsupported currency/);
  });

  it.each([1.5, 0.1, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 1])(
    'throws for the non-(safe-)integer amount %p',
    (minor) => {
      expect(() => toMajorString(minor, 'USD')).toThrow(/safe integer/);
    },
  );

  describe('properties', () => {
    const currency = fc.constantFrom(...SUPPORTED_CURRENCIES);
    const amount = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

    it('parses back to exactly the minor amount', () => {
      fc.assert(
        fc.property(amount, currency, (minor, cur) => {
          const s = toMajorString(minor, cur);
          expect(BigInt(s.replace('.', ''))).toBe(BigInt(minor));
        }),
      );
    });

    it('has exactly `exponent` digits after the point, and no point when the exponent is 0', () => {
      fc.assert(
        fc.property(amount, currency, (minor, cur) => {
          const s = toMajorString(minor, cur);
          const exp = CURRENCY_EXPONENTS[cur];
          if (exp === 0) {
            expect(s).toMatch(/^-?\d+$/);
          } else {
            expect(s).toMatch(new RegExp(`^-?\\d+\\.\\d{${exp}}$`));
          }
        }),
      );
    });

    it('has no superfluous leading zeros in the integer part', () => {
      fc.assert(
        fc.property(amount, currency, (minor, cur) => {
          const intPart = toMajorString(minor, cur).replace('-', '').split('.')[0];
          expect(intPart === '0' || !intPart.startsWith('0')).toBe(true);
        }),
      );
    });

    it('carries the sign of the amount', () => {
      fc.assert(
        fc.property(amount, currency, (minor, cur) => {
          expect(toMajorString(minor, cur).startsWith('-')).toBe(minor < 0);
        }),
      );
    });
  });
});

describe('toMajorNumber', () => {
  it.each([
    [1015, 'USD', 10.15],
    [12345, 'USD', 123.45],
    [5, 'USD', 0.05],
    [0, 'USD', 0],
    [-7, 'USD', -0.07],
    [1015, 'JPY', 1015],
    [12345, 'BHD', 12.345],
  ])('%i %s → %d', (minor, currency, expected) => {
    expect(toMajorNumber(minor, currency)).toBe(expected);
  });

  it('equals the minor amount divided by 10^exponent for everyday amounts', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(...SUPPORTED_CURRENCIES), (minor, cur) => {
        expect(toMajorNumber(minor, cur)).toBe(Number(toMajorString(minor, cur)));
        expect(toMajorNumber(minor, cur)).toBeCloseTo(minor / 10 ** exponentOf(cur), 9);
      }),
    );
  });

  it('throws like toMajorString for bad input', () => {
    expect(() => toMajorNumber(1, 'XXX')).toThrow(/unsupported currency/);
    expect(() => toMajorNumber(1.5, 'USD')).toThrow(/safe integer/);
  });
});

describe('isSupportedCurrency / exponentOf', () => {
  it('knows the listed currencies and their exponents', () => {
    expect(exponentOf('USD')).toBe(2);
    expect(exponentOf('JPY')).toBe(0);
    expect(exponentOf('BHD')).toBe(3);
    expect(isSupportedCurrency('ZWG')).toBe(true);
  });

  it.each(['toString', 'constructor', '__proto__', 'usd', 'XXX', 42, null, undefined])('rejects %p', (code) => {
    expect(isSupportedCurrency(code)).toBe(false);
  });

  it('exponentOf throws for an unsupported code', () => {
    expect(() => exponentOf('XXX')).toThrow(/unsupported currency XXX/);
  });
});
