import { InvalidArgumentError } from 'commander';
import { isoTimestamp, nonNegativeInt, signedInt } from './values';

describe('isoTimestamp', () => {
  it.each(['2026-11-22T00:00:00Z', '2026-11-22T02:00:00.123+02:00', '2024-02-29T23:59:59-05:30'])('accepts %s', (v) => {
    expect(isoTimestamp(v).getTime()).toBe(Date.parse(v));
  });

  it.each([
    '1',
    '2001',
    '2026-11-22T00:00Z',
    '2026-11-22',
    '2026-11-22T00:00:00',
    '2026-11-22 00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-11-22T24:00:00Z',
    '2026-11-22T00:60:00Z',
    'yesterday',
  ])('refuses %s', (v) => {
    expect(() => isoTimestamp(v)).toThrow(InvalidArgumentError);
  });
});

describe('integer options', () => {
  it('reads offsets and shifts', () => {
    expect(nonNegativeInt('0')).toBe(0);
    expect(signedInt('-25')).toBe(-25);
    expect(signedInt('+3')).toBe(3);
  });

  it.each(['-1', '1.5', '1e3', '', 'ten'])('refuses %j as an offset', (v) => {
    expect(() => nonNegativeInt(v)).toThrow(InvalidArgumentError);
  });
});
