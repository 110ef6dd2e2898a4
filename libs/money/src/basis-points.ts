/** 100 % in basis points: fees and percentage splits are integers from 0 to this. */
export const BPS_WHOLE = 10_000;

export function isBasisPoints(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= BPS_WHOLE;
}

// BigInt: amount × bps can exceed 2^53 for large amounts.

/** floor(amount × bps / 10 000): a share that never exceeds its exact value (splits). */
export function bpsShareFloor(amount: number, bps: number): number {
  return Number((BigInt(amount) * BigInt(bps)) / BigInt(BPS_WHOLE));
}

/** ceil(amount × bps / 10 000): a share rounded up to the next minor unit (fees). */
export function bpsShareCeil(amount: number, bps: number): number {
  return Number((BigInt(amount) * BigInt(bps) + BigInt(BPS_WHOLE - 1)) / BigInt(BPS_WHOLE));
}
