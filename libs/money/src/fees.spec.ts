import fc from 'fast-check';
import { computeCharges, parseFeeSchedule } from './fees';

describe('computeCharges', () => {
  it.each([
    [1000, 150, 0, 15],
    [1001, 150, 0, 16], // 15.015 → 16
    [999, 150, 0, 15], // 14.985 → 15
    [1, 1, 0, 1], // 0.0001 → 1
    [10_000, 1, 0, 1], // exactly 1
    [10_001, 1, 0, 2], // 1.0001 → 2
    [0, 150, 0, 0],
    [0, 250, 30, 30], // zero amount → fixed part only
    [1000, 250, 30, 55],
    [1000, 0, 0, 0],
    [1000, 0, 30, 30],
    [1234, 10_000, 0, 1234], // 100 %
    [Number.MAX_SAFE_INTEGER, 1, 0, 900_719_925_475], // no float overflow: ceil(9007199254740991 / 10000)
  ])('amount %i at %i bps + %i → %i', (amount, bps, fixed, expected) => {
    expect(computeCharges(amount, { bps, fixed })).toBe(expected);
  });

  it.each([-1, 1.5, NaN, Infinity, Number.MAX_SAFE_INTEGER + 1])('refuses the amount %p', (amount) => {
    expect(() => computeCharges(amount, { bps: 150, fixed: 0 })).toThrow(/non-negative safe integer/);
  });

  it('throws rather than return an unsafe number', () => {
    expect(() => computeCharges(Number.MAX_SAFE_INTEGER, { bps: 10_000, fixed: 1 })).toThrow(/overflow/);
  });

  describe('properties', () => {
    const amount = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
    const fee = fc.record({ bps: fc.integer({ min: 0, max: 10_000 }), fixed: fc.integer({ min: 0, max: 1_000_000 }) });
    const safeCase = fc
      .tuple(amount, fee)
      .filter(
        ([a, f]) => (BigInt(a) * BigInt(f.bps) + 9_999n) / 10_000n + BigInt(f.fixed) <= BigInt(Number.MAX_SAFE_INTEGER),
      );

    it('is ceil(amount × bps / 10 000) + fixed: an integer within one minor unit above the exact value', () => {
      fc.assert(
        fc.property(safeCase, ([a, f]) => {
          const charges = computeCharges(a, f);
          expect(Number.isSafeInteger(charges)).toBe(true);
          const c = BigInt(charges) * 10_000n;
          const exact = BigInt(a) * BigInt(f.bps) + BigInt(f.fixed) * 10_000n;
          expect(c >= exact).toBe(true);
          expect(c < exact + 10_000n).toBe(true);
        }),
      );
    });

    it('is never negative and never less than the fixed part', () => {
      fc.assert(
        fc.property(safeCase, ([a, f]) => {
          const charges = computeCharges(a, f);
          expect(charges).toBeGreaterThanOrEqual(0);
          expect(charges).toBeGreaterThanOrEqual(f.fixed);
        }),
      );
    });

    it('never charges more than the amount plus the fixed part (bps ≤ 10 000)', () => {
      fc.assert(
        fc.property(safeCase, ([a, f]) => {
          expect(computeCharges(a, f)).toBeLessThanOrEqual(a + f.fixed);
        }),
      );
    });

    it('does not decrease when the amount grows', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 0, max: 1e6 }), fee, (a, extra, f) => {
          expect(computeCharges(a + extra, f)).toBeGreaterThanOrEqual(computeCharges(a, f));
        }),
      );
    });
  });
});

describe('parseFeeSchedule', () => {
  it('parses code=bps+fixed entries', () => {
    expect(parseFeeSchedule('ecocash=150+0,zimswitch=250+30')).toEqual({
      ecocash: { bps: 150, fixed: 0 },
      zimswitch: { bps: 250, fixed: 30 },
    });
  });

  it('tolerates spaces around entries and empty entries', () => {
    expect(parseFeeSchedule(' ecocash=150+0 , ,default=250+0,')).toEqual({
      ecocash: { bps: 150, fixed: 0 },
      default: { bps: 250, fixed: 0 },
    });
  });

  it('gives an empty schedule for an empty string', () => {
    expect(parseFeeSchedule('')).toEqual({});
  });

  it('accepts the 10 000 bps limit itself', () => {
    expect(parseFeeSchedule('all=10000+0')).toEqual({ all: { bps: 10_000, fixed: 0 } });
  });

  it('parses the transaction-service default schedule', () => {
    const s = parseFeeSchedule('ecocash=150+0,innbucks=100+0,zimswitch=250+0,dpo=350+0,ozow=200+0,default=250+0');
    expect(Object.keys(s).sort()).toEqual(['default', 'dpo', 'ecocash', 'innbucks', 'ozow', 'zimswitch']);
    expect(s.dpo).toEqual({ bps: 350, fixed: 0 });
  });

  it.each([
    'ecocash',
    'ecocash=150',
    'ecocash=+0',
    'ecocash=150+',
    '=150+0',
    'EcoCash=150+0',
    'eco-cash=150+0',
    'ecocash=1.5+0',
    'ecocash=-150+0',
    'ecocash=150+-1',
    'ecocash=150+0.5',
    'ecocash=150-0',
    'ecocash = 150+0',
    'ecocash=150+0;zimswitch=250+30',
    'ecocash=150+0,zimswitch',
  ])('rejects the malformed schedule %p and names the bad entry', (text) => {
    expect(() => parseFeeSchedule(text)).toThrow(/bad fee entry/);
  });

  it.each(['ecocash=10001+0', 'ecocash=99999+0'])('rejects %p: more than 10 000 bps', (text) => {
    expect(() => parseFeeSchedule(text)).toThrow(/ecocash exceeds 10000 bps/);
  });

  it('feeds computeCharges', () => {
    const s = parseFeeSchedule('zimswitch=250+30');
    expect(computeCharges(1001, s.zimswitch)).toBe(26 + 30); // 25.025 → 26
  });
});
