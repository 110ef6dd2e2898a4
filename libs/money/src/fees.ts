import { BPS_WHOLE, bpsShareCeil, isBasisPoints } from './basis-points';

/** A fee: basis points of the amount (rounded up to the next minor unit) plus a fixed part. */
export interface Fee {
  bps: number;
  fixed: number;
}

/** ceil(amount × bps / 10 000) + fixed, in integer arithmetic (no float rounding, no overflow). */
export function computeCharges(amount: number, fee: Fee): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error('amount must be a non-negative safe integer');
  if (!isBasisPoints(fee.bps)) throw new Error(`fee bps must be an integer from 0 to ${BPS_WHOLE}`);
  if (!Number.isSafeInteger(fee.fixed) || fee.fixed < 0)
    throw new Error('fee fixed part must be a non-negative integer');
  const charges = BigInt(bpsShareCeil(amount, fee.bps)) + BigInt(fee.fixed);
  if (charges > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('charges overflow');
  return Number(charges);
}

/** Parses `code=bps+fixed,code=bps+fixed` (e.g. `ecocash=150+0,zimswitch=250+30`). */
export function parseFeeSchedule(text: string): Record<string, Fee> {
  const schedule: Record<string, Fee> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z_]+)=(\d{1,5})\+(\d{1,12})$/.exec(part);
    if (!m) throw new Error(`bad fee entry "${part}", expected code=bps+fixed`);
    const bps = Number(m[2]);
    if (bps > BPS_WHOLE) throw new Error(`fee for ${m[1]} exceeds ${BPS_WHOLE} bps`);
    if (schedule[m[1]]) throw new Error(`fee for ${m[1]} is given twice`);
    schedule[m[1]] = { bps, fixed: Number(m[3]) };
  }
  return schedule;
}
