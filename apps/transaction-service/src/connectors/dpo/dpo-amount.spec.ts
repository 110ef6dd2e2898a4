import { formatDpoAmount, isDpoCurrency, parseDpoAmount } from './dpo-amount';

describe('DPO amounts', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [1050, '10.50'],
    [123456789, '1234567.89'],
  ])('formats %i minor units as %s', (minor, text) => {
    expect(formatDpoAmount(minor)).toBe(text);
    expect(parseDpoAmount(text)).toBe(minor);
  });

  it('refuses to format a negative or fractional amount', () => {
    expect(() => formatDpoAmount(-1)).toThrow();
    expect(() => formatDpoAmount(1.5)).toThrow();
  });

  it.each([
    ['10', 1000],
    ['10.5', 1050],
    [' 10.50 ', 1050],
    ['1,000.00', 100000],
  ])('reads %j as %i', (text, minor) => expect(parseDpoAmount(text)).toBe(minor));

  it.each(['', '-1.00', '1.234', '1e3', '10,00', 'abc', '１０', '99999999999999999.00'])('refuses %j', (text) =>
    expect(parseDpoAmount(text)).toBeNull(),
  );

  it('sends only currencies whose minor unit is a hundredth (UGX is whole shillings: never sent as cents)', () => {
    expect(isDpoCurrency('USD')).toBe(true);
    expect(isDpoCurrency('ZAR')).toBe(true);
    expect(isDpoCurrency('UGX')).toBe(false);
    expect(isDpoCurrency('JPY')).toBe(false);
    expect(isDpoCurrency('KWD')).toBe(false);
    expect(isDpoCurrency('usd')).toBe(false);
    expect(isDpoCurrency('US')).toBe(false);
  });
});
