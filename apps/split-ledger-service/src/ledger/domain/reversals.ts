import { refundedShare } from '@payments/money';

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
 * The reversals still to write. An entry of amount a is reversed by floor(a × min(R, amount) / amount) in all, R the
 * total refunded: that depends only on R, not refund order, so a full refund cancels each entry exactly and never more.
 * What is missing goes to refunds without a row for that entry, in refund id order. Pure and idempotent.
 */
export function planReversals(
  transactionAmount: number,
  entries: EntryToReverse[],
  refunds: SuccessfulRefund[],
  existing: ExistingReversal[],
): PlannedReversal[] {
  if (!Number.isSafeInteger(transactionAmount) || transactionAmount <= 0)
    throw new Error(`transaction amount must be a positive safe integer, got ${transactionAmount}`);
  const ordered = [...refunds].sort((a, b) => a.refundId - b.refundId);
  const refunded = ordered.reduce((s, r) => s + BigInt(r.amount), 0n);
  const planned: PlannedReversal[] = [];
  for (const entry of entries) {
    const rows = existing.filter((r) => r.entryId === entry.entryId);
    const withRow = new Set(rows.map((r) => r.refundId));
    const missing = ordered.filter((r) => !withRow.has(r.refundId));
    let reversed = rows.reduce((s, r) => s - BigInt(r.amount), 0n);
    // Refunds that already have a row were accounted for when it was written; the missing ones
    // carry the entry from there to the cumulative target, each up to its own running share.
    let running = missing.reduce((s, r) => s - BigInt(r.amount), refunded);
    for (const refund of missing) {
      running += BigInt(refund.amount);
      const delta = BigInt(refundedShare(entry.amount, Number(running), transactionAmount)) - reversed;
      if (delta > 0n) {
        planned.push({ entryId: entry.entryId, refundId: refund.refundId, amount: -Number(delta) });
        reversed += delta;
      }
    }
  }
  return planned;
}
