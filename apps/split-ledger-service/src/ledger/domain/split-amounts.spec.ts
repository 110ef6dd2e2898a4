import fc from 'fast-check';
import { computeSplitEntries, owedToPartner, splitAmount, type SplitRule } from './split-amounts';

const config = (
  configId: number,
  partner: number,
  type: 'percentage' | 'fixed',
  value: number,
  role: 'fee' | 'principal' = 'fee',
): SplitRule => ({
  source: { kind: 'config', configId },
  partnerBusinessId: partner,
  type,
  value,
  role,
});
const link = (index: number, partner: number, type: 'percentage' | 'fixed', value: number): SplitRule => ({
  source: { kind: 'link', index },
  partnerBusinessId: partner,
  type,
  value,
  role: 'fee',
});

describe('splitAmount', () => {
  it.each([
    [10_000, 'percentage', 250, 250], // 2.5 % of 100.00
    [1_000, 'percentage', 250, 25],
    [999, 'percentage', 250, 24], // 24.975 → floor
    [1, 'percentage', 9_999, 0],
    [1_234, 'percentage', 10_000, 1_234],
    [1_000, 'fixed', 300, 300],
    [100, 'fixed', 300, 300], // a fixed split is its value; capping happens later
    [Number.MAX_SAFE_INTEGER, 'percentage', 10_000, Number.MAX_SAFE_INTEGER], // no float overflow
  ] as const)('%i at %s %i → %i', (amount, type, value, expected) => {
    expect(splitAmount(amount, type, value)).toBe(expected);
  });
});

describe('owedToPartner', () => {
  it('is the split for a fee and the rest for a principal split', () => {
    expect(owedToPartner(10_000, { type: 'percentage', value: 250, role: 'fee' })).toBe(250);
    expect(owedToPartner(10_000, { type: 'percentage', value: 250, role: 'principal' })).toBe(9_750);
    expect(owedToPartner(10_000, { type: 'fixed', value: 300, role: 'principal' })).toBe(9_700);
    expect(owedToPartner(100, { type: 'fixed', value: 300, role: 'principal' })).toBe(0);
  });
});

describe('computeSplitEntries', () => {
  it('gives one entry per split with the partner as creditor', () => {
    expect(
      computeSplitEntries(10_000, [config(7, 2, 'percentage', 250), config(9, 3, 'fixed', 500, 'principal')]),
    ).toEqual([
      { source: { kind: 'config', configId: 7 }, creditorBusinessId: 2, amount: 250, capped: false },
      { source: { kind: 'config', configId: 9 }, creditorBusinessId: 3, amount: 9_500, capped: false },
    ]);
  });

  it('applies configs by id, then link splits by position, and caps the later ones', () => {
    const entries = computeSplitEntries(1_000, [
      link(0, 4, 'fixed', 300),
      config(9, 3, 'fixed', 600),
      config(2, 2, 'percentage', 5_000),
    ]);
    expect(entries).toEqual([
      { source: { kind: 'config', configId: 2 }, creditorBusinessId: 2, amount: 500, capped: false },
      { source: { kind: 'config', configId: 9 }, creditorBusinessId: 3, amount: 500, capped: true },
      { source: { kind: 'link', index: 0 }, creditorBusinessId: 4, amount: 0, capped: true },
    ]);
  });

  it('treats link splits as fee splits', () => {
    expect(
      computeSplitEntries(2_000, [link(0, 5, 'percentage', 1_000), link(1, 6, 'fixed', 150)]).map((e) => e.amount),
    ).toEqual([200, 150]);
  });

  it('gives nothing without splits', () => {
    expect(computeSplitEntries(5_000, [])).toEqual([]);
  });

  it.each([[config(1, 2, 'percentage', 10_001)], [config(1, 2, 'fixed', 0)], [config(1, 2, 'fixed', 1.5)]])(
    'refuses an invalid rule %#',
    (rule) => {
      expect(() => computeSplitEntries(1_000, [rule])).toThrow();
    },
  );

  it.each([-1, 1.5, Number.MAX_SAFE_INTEGER + 1])('refuses the amount %p', (amount) => {
    expect(() => computeSplitEntries(amount, [])).toThrow(/non-negative safe integer/);
  });

  describe('properties', () => {
    const rule = fc.oneof(
      fc.record({
        source: fc.record({ kind: fc.constant('config' as const), configId: fc.integer({ min: 1, max: 1_000_000 }) }),
        partnerBusinessId: fc.integer({ min: 1, max: 1_000 }),
        type: fc.constant('percentage' as const),
        value: fc.integer({ min: 1, max: 10_000 }),
        role: fc.constantFrom('fee' as const, 'principal' as const),
      }),
      fc.record({
        source: fc.record({ kind: fc.constant('config' as const), configId: fc.integer({ min: 1, max: 1_000_000 }) }),
        partnerBusinessId: fc.integer({ min: 1, max: 1_000 }),
        type: fc.constant('fixed' as const),
        value: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        role: fc.constantFrom('fee' as const, 'principal' as const),
      }),
      fc.record({
        source: fc.record({ kind: fc.constant('link' as const), index: fc.integer({ min: 0, max: 9 }) }),
        partnerBusinessId: fc.integer({ min: 1, max: 1_000 }),
        type: fc.constantFrom('percentage' as const, 'fixed' as const),
        value: fc.integer({ min: 1, max: 10_000 }),
        role: fc.constant('fee' as const),
      }),
    );
    const amount = fc.oneof(
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    );
    // A transaction's splits have distinct sources (one config id, one link position each).
    const rules = fc.uniqueArray(rule, {
      maxLength: 12,
      selector: (r) => (r.source.kind === 'config' ? `c${r.source.configId}` : `l${r.source.index}`),
    });

    it('gives non-negative integer entries that never total more than the amount', () => {
      fc.assert(
        fc.property(amount, rules, (a, rs) => {
          const entries = computeSplitEntries(a, rs);
          expect(entries).toHaveLength(rs.length);
          let total = 0n;
          for (const e of entries) {
            expect(Number.isSafeInteger(e.amount)).toBe(true);
            expect(e.amount).toBeGreaterThanOrEqual(0);
            total += BigInt(e.amount);
          }
          expect(total <= BigInt(a)).toBe(true);
        }),
      );
    });

    it('never gives a split more than it is owed, and caps only when the amount runs out', () => {
      fc.assert(
        fc.property(amount, rules, (a, rs) => {
          const entries = computeSplitEntries(a, rs);
          let total = 0;
          for (const e of entries) {
            const owed = owedToPartner(
              a,
              rs.find((r) => r.source === e.source)!,
            );
            expect(e.amount).toBeLessThanOrEqual(owed);
            expect(e.capped).toBe(e.amount < owed);
            if (e.capped) expect(total + e.amount).toBe(a);
            total += e.amount;
          }
        }),
      );
    });

    it('does not depend on the order the rules come in', () => {
      fc.assert(
        fc.property(amount, rules, fc.func(fc.integer()), (a, rs, key) => {
          const shuffled = [...rs].sort((x, y) => key(x) - key(y));
          const norm = (list: ReturnType<typeof computeSplitEntries>) =>
            list.map((e) => [e.source.kind, e.amount, e.capped]);
          expect(norm(computeSplitEntries(a, shuffled))).toEqual(norm(computeSplitEntries(a, rs)));
        }),
      );
    });
  });
});
