import { publicId, randomBase62 } from './ids';

describe('randomBase62', () => {
  it.each([0, 1, 7, 24, 40, 100, 1000])('returns exactly %i characters', (n) => {
    expect(randomBase62(n)).toHaveLength(n);
  });

  it('uses only the 62 base62 characters', () => {
    expect(randomBase62(5000)).toMatch(/^[0-9A-Za-z]{5000}$/);
  });

  it('uses the whole alphabet (digits, upper and lower case)', () => {
    const seen = new Set(randomBase62(20_000));
    expect(seen.size).toBe(62);
  });

  it('is not constant', () => {
    expect(randomBase62(24)).not.toBe(randomBase62(24));
  });
});

describe('publicId', () => {
  it('is prefix, underscore and 24 base62 characters by default', () => {
    expect(publicId('txn')).toMatch(/^txn_[0-9A-Za-z]{24}$/);
  });

  it('honours a custom length', () => {
    expect(publicId('ref', 20)).toMatch(/^ref_[0-9A-Za-z]{20}$/);
  });

  it('gives 1000 distinct ids', () => {
    const ids = Array.from({ length: 1000 }, () => publicId('txn'));
    expect(new Set(ids).size).toBe(1000);
  });
});
