import { formatOzowAmount, parseOzowAmount } from './ozow-amount';

describe('Ozow amounts', () => {
  it.each([
    [2500, '25.00'],
    [5, '0.05'],
    [0, '0.00'],
    [123456, '1234.56'],
  ])('formats %d minor units as %s', (minor, text) => {
    expect(formatOzowAmount(minor)).toBe(text);
  });

  it('refuses to format what is not a non-negative safe integer', () => {
    expect(() => formatOzowAmount(-1)).toThrow();
    expect(() => formatOzowAmount(1.5)).toThrow();
  });

  it.each<[unknown, number | null]>([
    ['25.00', 2500],
    ['25.5', 2550],
    ['25', 2500],
    [' 0.05 ', 5],
    [25, 2500],
    [25.5, 2550],
    [0.1, 10],
    [1234.56, 123456],
    ['25.001', null],
    ['-1.00', null],
    ['1e3', null],
    ['', null],
    ['R25.00', null],
    [25.001, null],
    [-2, null],
    [Number.NaN, null],
    [null, null],
    [true, null],
  ])('reads %p as %p', (value, minor) => {
    expect(parseOzowAmount(value)).toBe(minor);
  });
});
