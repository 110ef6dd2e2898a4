import fc from 'fast-check';
import { formatPaynowAmount, parsePaynowAmount } from './paynow-amount';

describe('Paynow amounts', () => {
  it.each([
    [1050, '10.50'],
    [9999, '99.99'],
    [5, '0.05'],
    [0, '0.00'],
    [100, '1.00'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('%i minor units → %s', (minor, text) => {
    expect(formatPaynowAmount(minor)).toBe(text);
  });

  it.each([-1, 1.5, NaN, Infinity, Number.MAX_SAFE_INTEGER + 1])('refuses to format %p', (minor) => {
    expect(() => formatPaynowAmount(minor)).toThrow(/non-negative safe integer/);
  });

  it.each([
    ['10.50', 1050],
    ['100.00', 10000],
    ['10.5', 1050],
    ['7', 700],
    ['0.01', 1],
    ['0', 0],
    [' 12.34 ', 1234],
    ['1,082.00', 108200],
    ['1,234,567.89', 123456789],
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
  ])('reads %p as %i minor units', (text, minor) => {
    expect(parsePaynowAmount(text)).toBe(minor);
  });

  it.each([
    '',
    '-1.00',
    '+1.00',
    '1.234',
    '1e3',
    '01.00',
    '.50',
    '1.',
    '1,00.00',
    '12,34',
    '1 000.00',
    'abc',
    '10.50 USD',
    '$10.50',
    '0x10',
    '90071992547409.92',
    '1.0\u0660',
  ])('refuses %p', (text) => {
    expect(parsePaynowAmount(text)).toBeNull();
  });

  it('reads back exactly what it writes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (minor) => {
        expect(parsePaynowAmount(formatPaynowAmount(minor))).toBe(minor);
      }),
    );
  });

  it('writes two decimals and reads any one- or two-decimal spelling to the same amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), (minor) => {
        const text = formatPaynowAmount(minor);
        expect(text).toMatch(/^(0|[1-9]\d*)\.\d{2}$/);
        const [whole, cents] = text.split('.');
        if (cents.endsWith('0')) expect(parsePaynowAmount(`${whole}.${cents[0]}`)).toBe(minor);
        if (cents === '00') expect(parsePaynowAmount(whole)).toBe(minor);
        const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
        expect(parsePaynowAmount(`${grouped}.${cents}`)).toBe(minor);
      }),
    );
  });

  it('accepts only plain decimals, and reads them to their exact value', () => {
    const chars = fc.constantFrom('0', '1', '5', '9', ',', '.', '-', 'e', ' ');
    fc.assert(
      fc.property(fc.stringOf(chars, { maxLength: 12 }), (text) => {
        const minor = parsePaynowAmount(text);
        if (minor === null) return;
        const plain = text.trim().replace(/,/g, '');
        expect(plain).toMatch(/^\d+(\.\d{1,2})?$/);
        expect(minor).toBe(Math.round(Number(plain) * 100)); // a float reference is exact enough at 12 characters
      }),
    );
  });
});
