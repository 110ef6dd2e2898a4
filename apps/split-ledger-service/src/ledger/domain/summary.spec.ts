import fc from 'fast-check';
import { summarize, type SummableAmount } from './summary';

describe('summarize', () => {
  it('puts what the business is owed and what it owes per currency, reversals subtracting', () => {
    const amounts: SummableAmount[] = [
      { creditorBusinessId: 2, debtorBusinessId: 1, currency: 'USD', amount: 250 },
      { creditorBusinessId: 2, debtorBusinessId: 1, currency: 'USD', amount: -100 },
      { creditorBusinessId: 1, debtorBusinessId: 3, currency: 'ZAR', amount: 40 },
      { creditorBusinessId: 3, debtorBusinessId: 1, currency: 'EUR', amount: 7 },
      { creditorBusinessId: 3, debtorBusinessId: 4, currency: 'USD', amount: 999 },
    ];
    expect(summarize(amounts, 1)).toEqual({
      owed_to_you: [{ currency: 'ZAR', total: 40 }],
      you_owe: [
        { currency: 'EUR', total: 7 },
        { currency: 'USD', total: 150 },
      ],
      by_counterparty: [
        { business_id: 2, currency: 'USD', owed_to_you: 0, you_owe: 150 },
        { business_id: 3, currency: 'EUR', owed_to_you: 0, you_owe: 7 },
        { business_id: 3, currency: 'ZAR', owed_to_you: 40, you_owe: 0 },
      ],
    });
    expect(summarize(amounts, 2)).toEqual({
      owed_to_you: [{ currency: 'USD', total: 150 }],
      you_owe: [],
      by_counterparty: [{ business_id: 1, currency: 'USD', owed_to_you: 150, you_owe: 0 }],
    });
    expect(summarize(amounts, 99)).toEqual({ owed_to_you: [], you_owe: [], by_counterparty: [] });
  });

  it('shows both directions with one counterparty in one currency on one line', () => {
    const amounts: SummableAmount[] = [
      { creditorBusinessId: 1, debtorBusinessId: 2, currency: 'USD', amount: 500 },
      { creditorBusinessId: 2, debtorBusinessId: 1, currency: 'USD', amount: 120 },
      { creditorBusinessId: 2, debtorBusinessId: 1, currency: 'USD', amount: -120 },
    ];
    expect(summarize(amounts, 1).by_counterparty).toEqual([
      { business_id: 2, currency: 'USD', owed_to_you: 500, you_owe: 0 },
    ]);
  });

  describe('properties', () => {
    const entry = fc.record({
      creditorBusinessId: fc.integer({ min: 1, max: 5 }),
      debtorBusinessId: fc.integer({ min: 1, max: 5 }),
      currency: fc.constantFrom('USD', 'ZAR', 'JPY'),
      amount: fc.integer({ min: -1_000_000, max: 1_000_000 }),
    });
    const entries = fc
      .array(entry, { maxLength: 40 })
      .map((list) => list.filter((e) => e.creditorBusinessId !== e.debtorBusinessId));

    it('equals the sums of the entries, per side and currency', () => {
      fc.assert(
        fc.property(entries, fc.integer({ min: 1, max: 5 }), (list, b) => {
          const s = summarize(list, b);
          for (const { currency, total } of s.owed_to_you) {
            expect(total).toBe(
              list
                .filter((e) => e.creditorBusinessId === b && e.currency === currency)
                .reduce((t, e) => t + e.amount, 0),
            );
          }
          for (const { currency, total } of s.you_owe) {
            expect(total).toBe(
              list.filter((e) => e.debtorBusinessId === b && e.currency === currency).reduce((t, e) => t + e.amount, 0),
            );
          }
          expect(new Set(s.owed_to_you.map((t) => t.currency))).toEqual(
            new Set(list.filter((e) => e.creditorBusinessId === b).map((e) => e.currency)),
          );
          expect(new Set(s.you_owe.map((t) => t.currency))).toEqual(
            new Set(list.filter((e) => e.debtorBusinessId === b).map((e) => e.currency)),
          );
        }),
      );
    });

    it('gives the same from entries as from their per-counterparty totals (what PostgreSQL returns)', () => {
      fc.assert(
        fc.property(entries, fc.integer({ min: 1, max: 5 }), (list, b) => {
          const grouped = new Map<string, SummableAmount>();
          for (const e of list) {
            const key = `${e.creditorBusinessId}|${e.debtorBusinessId}|${e.currency}`;
            const g = grouped.get(key);
            grouped.set(key, g ? { ...g, amount: g.amount + e.amount } : { ...e });
          }
          expect(summarize([...grouped.values()], b)).toEqual(summarize(list, b));
        }),
      );
    });

    it('per counterparty adds up to the per-currency totals, and names only the business’s counterparties', () => {
      fc.assert(
        fc.property(entries, fc.integer({ min: 1, max: 5 }), (list, b) => {
          const s = summarize(list, b);
          const sum = (side: 'owed_to_you' | 'you_owe', currency: string) =>
            s.by_counterparty.filter((c) => c.currency === currency).reduce((t, c) => t + c[side], 0);
          for (const t of s.owed_to_you) expect(sum('owed_to_you', t.currency)).toBe(t.total);
          for (const t of s.you_owe) expect(sum('you_owe', t.currency)).toBe(t.total);
          const parties = new Set(
            list
              .filter((e) => e.creditorBusinessId === b || e.debtorBusinessId === b)
              .map((e) => `${e.creditorBusinessId === b ? e.debtorBusinessId : e.creditorBusinessId}:${e.currency}`),
          );
          expect(new Set(s.by_counterparty.map((c) => `${c.business_id}:${c.currency}`))).toEqual(parties);
          expect(s.by_counterparty.every((c) => c.business_id !== b)).toBe(true);
        }),
      );
    });

    it('balances: across all businesses, what is owed equals what is owed to them, per currency', () => {
      fc.assert(
        fc.property(entries, (list) => {
          const net = new Map<string, number>();
          for (let b = 1; b <= 5; b++) {
            const s = summarize(list, b);
            for (const t of s.owed_to_you) net.set(t.currency, (net.get(t.currency) ?? 0) + t.total);
            for (const t of s.you_owe) net.set(t.currency, (net.get(t.currency) ?? 0) - t.total);
          }
          for (const v of net.values()) expect(v).toBe(0);
        }),
      );
    });
  });
});
