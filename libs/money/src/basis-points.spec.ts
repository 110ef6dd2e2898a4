import fc from 'fast-check';
import { BPS_WHOLE, bpsShareCeil, bpsShareFloor, isBasisPoints } from './basis-points';

describe('basis points', () => {
  it.each([
    [1000, 1000, 100, 100],
    [999, 1000, 99, 100], // 99.9
    [1, 1, 0, 1],
    [1234, BPS_WHOLE, 1234, 1234],
    [Number.MAX_SAFE_INTEGER, 1, 900_719_925_474, 900_719_925_475],
  ])('%i at %i bps: floor %i, ceil %i', (amount, bps, floor, ceil) => {
    expect(bpsShareFloor(amount, bps)).toBe(floor);
    expect(bpsShareCeil(amount, bps)).toBe(ceil);
  });

  it('floor and ceil bracket the exact share, at most one unit apart', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 0, max: BPS_WHOLE }),
        (amount, bps) => {
          const exact = BigInt(amount) * BigInt(bps); // the share × 10 000
          const [lo, hi] = [BigInt(bpsShareFloor(amount, bps)), BigInt(bpsShareCeil(amount, bps))];
          expect(lo * 10_000n <= exact && exact <= hi * 10_000n).toBe(true);
          expect(hi - lo).toBe(exact % 10_000n === 0n ? 0n : 1n);
        },
      ),
    );
  });

  it.each([
    [0, true],
    [BPS_WHOLE, true],
    [BPS_WHOLE + 1, false],
    [-1, false],
    [1.5, false],
    ['100', false],
  ])('isBasisPoints(%p) is %p', (v, ok) => {
    expect(isBasisPoints(v)).toBe(ok);
  });
});
