/**
 * The part of `part` that a refund of `refunded` out of `total` undoes, rounded down:
 * floor(part × min(refunded, total) / total), exact for any safe integers. What a split entry's
 * reversals add up to once `refunded` has been refunded (the ledger writes it, reconcile checks it).
 */
export function refundedShare(part: number, refunded: number, total: number): number {
  if (!Number.isSafeInteger(total) || total <= 0)
    throw new Error(`total must be a positive safe integer, got ${total}`);
  const capped = BigInt(Math.min(refunded, total));
  return Number((BigInt(part) * capped) / BigInt(total));
}
