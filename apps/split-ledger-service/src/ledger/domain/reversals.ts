/** A split entry of a transaction (amount ≥ 0). */
export interface EntryToReverse {
  entryId: number;
  amount: number;
}

/** A successful refund of the transaction. */
export interface SuccessfulRefund {
  refundId: number;
  amount: number;
}

/** A reversal already written: `amount` ≤ 0. */
export interface ExistingReversal {
  entryId: number;
  refundId: number;
  amount: number;
}

export interface PlannedReversal {
  entryId: number;
  refundId: number;
  /** Negative: the share of the entry this refund undoes. */
  amount: number;
}

/**
 * The reversals still to write for a transaction of `transactionAmount`, given its split entries,
 * its successful refunds and the reversals already written. Cumulative rounding: after refunds
 * totalling R (in refund id order), an entry of amount a is reversed by floor(a × R / amount) in
 * all; each refund writes the difference to what earlier refunds reversed. So reversals never
 * exceed the entry, and a fully refunded transaction's reversals cancel its entries exactly.
 * Zero reversals are not planned. Pure and idempotent: planning again with the result added to
 * `existing` plans nothing.
 */
export function planReversals(
  transactionAmount: number,
  entries: EntryToReverse[],
  refunds: SuccessfulRefund[],
  existing: ExistingReversal[],
): PlannedReversal[] {
  if (!Number.isSafeInteger(transactionAmount) || transactionAmount <= 0) throw new Error(`transaction amount must be a positive safe integer, got ${transactionAmount}`);
  const written = new Map(existing.map((r) => [`${r.entryId}:${r.refundId}`, -r.amount]));
  const planned: PlannedReversal[] = [];
  const total = BigInt(transactionAmount);
  let refunded = 0n;
  const ordered = [...refunds].sort((a, b) => a.refundId - b.refundId);
  const reversedSoFar = new Map<number, bigint>();
  for (const refund of ordered) {
    refunded += BigInt(refund.amount);
    const share = refunded > total ? total : refunded;
    for (const entry of entries) {
      const before = reversedSoFar.get(entry.entryId) ?? 0n;
      const already = written.get(`${entry.entryId}:${refund.refundId}`);
      if (already !== undefined) {
        reversedSoFar.set(entry.entryId, before + BigInt(already));
        continue;
      }
      const target = (BigInt(entry.amount) * share) / total;
      const delta = target - before;
      if (delta > 0n) {
        planned.push({ entryId: entry.entryId, refundId: refund.refundId, amount: -Number(delta) });
        reversedSoFar.set(entry.entryId, before + delta);
      }
    }
  }
  return planned;
}
