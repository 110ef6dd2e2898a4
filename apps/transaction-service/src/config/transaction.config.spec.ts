import { DURATION, durationMs } from './transaction.config';

describe('durationMs', () => {
  it.each([
    ['30m', 30 * 60_000],
    ['2h', 2 * 3_600_000],
    ['900', 900_000], // bare number = seconds
    ['900s', 900_000],
    ['90s', 90_000],
    ['1d', 86_400_000],
    ['250ms', 250],
    ['0', 0],
    ['0m', 0],
  ])('%s → %i ms', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  it.each(['', 'm', '30 m', '30min', '1.5h', '-5m', '5x', '2H', ' 30m', '30m ', '1w'])('throws for %p', (text) => {
    expect(() => durationMs(text)).toThrow(/bad duration/);
  });

  it('accepts exactly what the config validation (DURATION) accepts', () => {
    for (const text of ['30m', '900', '250ms', '1d']) expect(DURATION.test(text)).toBe(true);
    for (const text of ['30min', '', '1.5h']) expect(DURATION.test(text)).toBe(false);
  });
});
