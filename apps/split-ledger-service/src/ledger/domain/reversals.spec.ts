import fc from 'fast-check';
import { planReversals, type ExistingReversal, type SuccessfulRefund } from './reversals';

describe('planReversals', () => {
  const entries = [
    { entryId: 1, amount: 250 },
    { entryId: 2, amount: 333 },
  ];

  it('reverses the refunded share of each entry, rounded down', () => {
    // 30 % refunded: floor(250 × 0.3) = 75, floor(333 × 0.3) = 99 (99.9)
    expect(planReversals(10_000, entries, [{ refundId: 10, amount: 3_000 }], [])).toEqual([
      { entryId: 1, refundId: 10, amount: -75 },
      { entryId: 2, refundId: 10, amount: -99 },
    ]);
  });

  it('rounds cumulatively, so a full refund in parts cancels the entries exactly', () => {
    const refunds = [
      { refundId: 10, amount: 3_000 },
      { refundId: 11, amount: 3_000 },
      { refundId: 12, amount: 4_000 },
    ];
    const plan = planReversals(10_000, entries, refunds, []);
    // entry 2: 99 (99.9), then floor(333 × 0.6) − 99 = 199 − 99 = 100, then 333 − 199 = 134
    expect(plan.filter((p) => p.entryId === 2).map((p) => p.amount)).toEqual([-99, -100, -134]);
    expect(plan.filter((p) => p.entryId === 1).map((p) => p.amount)).toEqual([-75, -75, -100]);
  });

  it('plans only what is missing, whatever order the refunds arrive in', () => {
    const first = planReversals(10_000, entries, [{ refundId: 10, amount: 3_000 }], []);
    const existing: ExistingReversal[] = first.map((p) => ({ ...p }));
    const second = planReversals(
      10_000,
      entries,
      [
        { refundId: 11, amount: 7_000 },
        { refundId: 10, amount: 3_000 },
      ],
      existing,
    );
    expect(second).toEqual([
      { entryId: 1, refundId: 11, amount: -175 },
      { entryId: 2, refundId: 11, amount: -234 },
    ]);
    expect(
      planReversals(
        10_000,
        entries,
        [
          { refundId: 10, amount: 3_000 },
          { refundId: 11, amount: 7_000 },
        ],
        [...existing, ...second],
      ),
    ).toEqual([]);
  });

  it('writes no zero reversal', () => {
    expect(planReversals(10_000, [{ entryId: 1, amount: 5 }], [{ refundId: 10, amount: 100 }], [])).toEqual([]);
  });

  it('has nothing to do without refunds or entries', () => {
    expect(planReversals(1_000, entries, [], [])).toEqual([]);
    expect(planReversals(1_000, [], [{ refundId: 1, amount: 1_000 }], [])).toEqual([]);
  });

  describe('properties', () => {
    const permutations = <T>(items: T[]): T[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, i) =>
            permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
          );

    it('settling the last two refunds out of order still reverses a fully refunded payment exactly', () => {
      // 3 × 3 333 + 1: with per-refund rounding in id order the entry of 100 kept 1 cent owed.
      const refunds = [
        { refundId: 1, amount: 3_333 },
        { refundId: 2, amount: 3_333 },
        { refundId: 3, amount: 3_334 },
      ];
      let existing: ExistingReversal[] = [];
      for (const done of [[refunds[0]], [refunds[0], refunds[2]], refunds])
        existing = [...existing, ...planReversals(10_000, [{ entryId: 1, amount: 100 }], done, existing)];
      expect(existing.reduce((s, r) => s + r.amount, 0)).toBe(-100);
    });

    const orderScenario = fc
      .integer({ min: 1, max: 1_000_000 })
      .chain((amount) =>
        fc.record({
          amount: fc.constant(amount),
          entries: fc.array(fc.integer({ min: 0, max: amount }), { minLength: 1, maxLength: 4 }),
          refunds: fc.array(fc.integer({ min: 1, max: amount }), { minLength: 1, maxLength: 5 }),
          full: fc.boolean(),
        }),
      )
      .map(({ amount, entries, refunds, full }) => {
        // Refund amounts as the service accepts them: never more than what is left to refund.
        let left = amount;
        const accepted: number[] = [];
        for (const r of refunds) {
          const take = Math.min(r, left);
          if (take > 0) accepted.push(take);
          left -= take;
        }
        if (full && left > 0) accepted.push(left);
        return {
          amount,
          entries: entries.map((a, i) => ({ entryId: i + 1, amount: a })),
          refunds: accepted.map((a, i) => ({ refundId: i + 1, amount: a })),
        };
      });

    it('gives the same reversal totals whatever order refunds complete in; fully refunded is fully reversed', () => {
      fc.assert(
        fc.property(orderScenario, ({ amount, entries, refunds }) => {
          for (const order of permutations(refunds)) {
            let existing: ExistingReversal[] = [];
            let refunded = 0;
            for (let i = 0; i < order.length; i++) {
              existing = [...existing, ...planReversals(amount, entries, order.slice(0, i + 1), existing)];
              refunded += order[i].amount;
              for (const e of entries) {
                const reversed = existing.filter((r) => r.entryId === e.entryId).reduce((s, r) => s - r.amount, 0);
                // After every completion, whatever the order so far: the cumulative share, rounded down.
                expect(reversed).toBe(Number((BigInt(e.amount) * BigInt(refunded)) / BigInt(amount)));
                if (refunded === amount) expect(reversed).toBe(e.amount);
                expect(reversed).toBeLessThanOrEqual(e.amount);
              }
            }
            expect(existing.every((r) => Number.isSafeInteger(r.amount) && r.amount < 0)).toBe(true);
            expect(new Set(existing.map((r) => `${r.entryId}:${r.refundId}`)).size).toBe(existing.length);
            expect(planReversals(amount, entries, order, existing)).toEqual([]);
          }
        }),
        { numRuns: 200 },
      );
    });

    const scenario = fc
      .integer({ min: 1, max: 10_000_000 })
      .chain((amount) =>
        fc.record({
          amount: fc.constant(amount),
          entries: fc.array(fc.integer({ min: 0, max: amount }), { maxLength: 6 }),
          cuts: fc.array(fc.integer({ min: 1, max: amount }), { maxLength: 6 }),
        }),
      )
      .map(({ amount, entries, cuts }) => {
        // Refunds that together refund everything: consecutive gaps between sorted cut points.
        const points = [...new Set([...cuts, amount])].sort((a, b) => a - b);
        const refunds: SuccessfulRefund[] = points.map((p, i) => ({
          refundId: i + 1,
          amount: p - (i === 0 ? 0 : points[i - 1]),
        }));
        return { amount, entries: entries.map((a, i) => ({ entryId: i + 1, amount: a })), refunds };
      });

    it('reverses every entry exactly once the whole amount is refunded, with non-positive integers', () => {
      fc.assert(
        fc.property(scenario, ({ amount, entries, refunds }) => {
          const plan = planReversals(amount, entries, refunds, []);
          for (const e of entries) {
            const reversed = plan.filter((p) => p.entryId === e.entryId).reduce((s, p) => s + p.amount, 0);
            expect(reversed + e.amount).toBe(0);
          }
          for (const p of plan) {
            expect(Number.isSafeInteger(p.amount)).toBe(true);
            expect(p.amount).toBeLessThan(0);
          }
        }),
      );
    });

    it('never reverses more than the refunded share, refund by refund, and is idempotent', () => {
      fc.assert(
        fc.property(scenario, fc.nat(), ({ amount, entries, refunds }, k) => {
          const partial = refunds.slice(0, (k % refunds.length) + 1);
          const refunded = partial.reduce((s, r) => s + r.amount, 0);
          const plan = planReversals(amount, entries, partial, []);
          for (const e of entries) {
            const reversed = plan.filter((p) => p.entryId === e.entryId).reduce((s, p) => s - p.amount, 0);
            expect(reversed).toBe(Number((BigInt(e.amount) * BigInt(refunded)) / BigInt(amount)));
          }
          expect(planReversals(amount, entries, partial, plan)).toEqual([]);
        }),
      );
    });

    it('ends in the same place whether refunds are applied one at a time or all at once', () => {
      fc.assert(
        fc.property(scenario, ({ amount, entries, refunds }) => {
          let existing: ExistingReversal[] = [];
          for (let i = 1; i <= refunds.length; i++)
            existing = [...existing, ...planReversals(amount, entries, refunds.slice(0, i), existing)];
          const sorted = (list: ExistingReversal[]) =>
            [...list].sort((a, b) => a.entryId - b.entryId || a.refundId - b.refundId);
          expect(sorted(existing)).toEqual(sorted(planReversals(amount, entries, refunds, [])));
        }),
      );
    });
  });
});
