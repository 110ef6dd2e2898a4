import fc from 'fast-check';
import { INVOICE_REFERENCE_PATTERN } from '@payments/contracts';
import { invoiceReference, netEntries, type NettableEntry } from './netting';

const e = (
  id: number,
  debtor: number,
  creditor: number,
  amount: number,
  currency = 'USD',
  mode: 'test' | 'live' = 'test',
): NettableEntry => ({
  id,
  mode,
  debtorBusinessId: debtor,
  creditorBusinessId: creditor,
  currency,
  amount,
});

describe('netEntries', () => {
  it('sums one direction into one invoice', () => {
    expect(netEntries([e(1, 1, 2, 250), e(2, 1, 2, 100), e(3, 1, 2, -50)])).toEqual([
      { mode: 'test', currency: 'USD', debtorBusinessId: 1, creditorBusinessId: 2, amount: 300, entryIds: [1, 2, 3] },
    ]);
  });

  it('nets both directions of a pair and flips the invoice when the net runs the other way', () => {
    expect(netEntries([e(1, 1, 2, 100), e(2, 2, 1, 300)])).toEqual([
      { mode: 'test', currency: 'USD', debtorBusinessId: 2, creditorBusinessId: 1, amount: 200, entryIds: [1, 2] },
    ]);
  });

  it('keeps currencies, modes and pairs apart', () => {
    const invoices = netEntries([
      e(1, 1, 2, 100),
      e(2, 1, 2, 100, 'ZAR'),
      e(3, 1, 2, 100, 'USD', 'live'),
      e(4, 1, 3, 100),
    ]);
    expect(invoices.map((i) => [i.mode, i.currency, i.debtorBusinessId, i.creditorBusinessId, i.entryIds])).toEqual([
      ['live', 'USD', 1, 2, [3]],
      ['test', 'USD', 1, 2, [1]],
      ['test', 'USD', 1, 3, [4]],
      ['test', 'ZAR', 1, 2, [2]],
    ]);
  });

  it('gives a zero invoice when a pair nets to nothing (e.g. a fully refunded split)', () => {
    expect(netEntries([e(1, 5, 2, 250), e(2, 5, 2, -250)])).toEqual([
      { mode: 'test', currency: 'USD', debtorBusinessId: 2, creditorBusinessId: 5, amount: 0, entryIds: [1, 2] },
    ]);
  });

  it('gives nothing for nothing', () => {
    expect(netEntries([])).toEqual([]);
  });

  describe('properties', () => {
    const entries = fc
      .array(
        fc.record({
          debtor: fc.integer({ min: 1, max: 5 }),
          creditor: fc.integer({ min: 1, max: 5 }),
          amount: fc.integer({ min: -100_000, max: 1_000_000 }),
          currency: fc.constantFrom('USD', 'ZAR'),
          mode: fc.constantFrom('test' as const, 'live' as const),
        }),
        { maxLength: 60 },
      )
      .map((list) =>
        list
          .filter((x) => x.debtor !== x.creditor)
          .map((x, i) => e(i + 1, x.debtor, x.creditor, x.amount, x.currency, x.mode)),
      );

    const balances = (
      items: { mode: string; currency: string; debtorBusinessId: number; creditorBusinessId: number; amount: number }[],
    ) => {
      const b = new Map<string, number>();
      const add = (k: string, v: number) => b.set(k, (b.get(k) ?? 0) + v);
      for (const i of items) {
        add(`${i.mode}|${i.currency}|${i.creditorBusinessId}`, i.amount);
        add(`${i.mode}|${i.currency}|${i.debtorBusinessId}`, -i.amount);
      }
      return new Map([...b].filter(([, v]) => v !== 0));
    };

    it('preserves every balance (per business, currency and mode)', () => {
      fc.assert(fc.property(entries, (list) => expect(balances(netEntries(list))).toEqual(balances(list))));
    });

    it('puts every entry in exactly one invoice, of its own pair, currency and mode', () => {
      fc.assert(
        fc.property(entries, (list) => {
          const invoices = netEntries(list);
          const seen = invoices.flatMap((i) => i.entryIds);
          expect([...seen].sort((a, b) => a - b)).toEqual(list.map((x) => x.id));
          for (const inv of invoices) {
            for (const id of inv.entryIds) {
              const x = list[id - 1];
              expect([x.mode, x.currency]).toEqual([inv.mode, inv.currency]);
              expect(new Set([x.debtorBusinessId, x.creditorBusinessId])).toEqual(
                new Set([inv.debtorBusinessId, inv.creditorBusinessId]),
              );
            }
          }
        }),
      );
    });

    it('never invoices a negative amount and gives one invoice per pair, currency and mode', () => {
      fc.assert(
        fc.property(entries, (list) => {
          const invoices = netEntries(list);
          for (const i of invoices) expect(Number.isSafeInteger(i.amount) && i.amount >= 0).toBe(true);
          const keys = invoices.map(
            (i) =>
              `${i.mode}|${i.currency}|` +
              `${Math.min(i.debtorBusinessId, i.creditorBusinessId)}|` +
              `${Math.max(i.debtorBusinessId, i.creditorBusinessId)}`,
          );
          expect(new Set(keys).size).toBe(keys.length);
        }),
      );
    });
  });
});

describe('invoiceReference', () => {
  it('names the day, the pair, the currency, the mode and a sequence number', () => {
    const ref = invoiceReference(
      new Date('2026-01-05T00:00:00.000Z'),
      { debtorBusinessId: 12, creditorBusinessId: 34, currency: 'USD', mode: 'test' },
      1,
    );
    expect(ref).toBe('INV-20260105-12-34-USD-TEST-1');
    expect(ref).toMatch(INVOICE_REFERENCE_PATTERN);
  });

  it('uses the UTC day', () => {
    expect(
      invoiceReference(
        new Date('2026-01-04T23:30:00-02:00'),
        { debtorBusinessId: 1, creditorBusinessId: 2, currency: 'ZAR', mode: 'live' },
        3,
      ),
    ).toBe('INV-20260105-1-2-ZAR-LIVE-3');
  });
});
