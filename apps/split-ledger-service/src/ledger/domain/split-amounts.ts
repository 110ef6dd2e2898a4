import { type SplitRole, type SplitType } from '@payments/contracts';
import { BPS_WHOLE, bpsShareFloor } from '@payments/money';

/** Where a split comes from: a split config (by its integer id) or a payment link's split (by position). */
export type SplitSource = { kind: 'config'; configId: number } | { kind: 'link'; index: number };

/** One split to apply to a transaction, as it stood when the transaction was created. */
export interface SplitRule {
  source: SplitSource;
  partnerBusinessId: number;
  type: SplitType;
  value: number;
  role: SplitRole;
}

/** What one split puts in the ledger: the partner (creditor) is owed `amount` by the owner. */
export interface SplitEntry {
  source: SplitSource;
  creditorBusinessId: number;
  amount: number;
  /** The split was cut down because earlier splits had already taken (part of) the amount. */
  capped: boolean;
}

/** The split's own amount: floor(amount × bps / 10 000) for a percentage, the value itself when fixed. */
export function splitAmount(amount: number, type: SplitType, value: number): number {
  if (type === 'fixed') return value;
  return bpsShareFloor(amount, value);
}

/** What the partner is owed before capping: the split for a fee, the rest for a principal split. */
export function owedToPartner(amount: number, rule: Pick<SplitRule, 'type' | 'value' | 'role'>): number {
  const split = splitAmount(amount, rule.type, rule.value);
  return rule.role === 'fee' ? split : Math.max(0, amount - split);
}

/** Configs by id, then link splits by position: the order in which later splits are capped. */
export function compareSources(a: SplitSource, b: SplitSource): number {
  if (a.kind !== b.kind) return a.kind === 'config' ? -1 : 1;
  return a.kind === 'config' ? a.configId - (b as typeof a).configId : a.index - (b as typeof a).index;
}

function assertRule(r: SplitRule): void {
  if (!Number.isSafeInteger(r.value) || r.value <= 0)
    throw new Error(`split value must be a positive integer, got ${r.value}`);
  if (r.type === 'percentage' && r.value > BPS_WHOLE)
    throw new Error(`percentage split of ${r.value} bps exceeds ${BPS_WHOLE}`);
}

/**
 * The ledger entries of a successful transaction: one per split, in a deterministic order
 * (configs by id, then link splits), each capped so that together they never exceed `amount`.
 * Link splits act like fee splits. Pure: no I/O, integers only.
 */
export function computeSplitEntries(amount: number, rules: SplitRule[]): SplitEntry[] {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new Error(`amount must be a non-negative safe integer, got ${amount}`);
  rules.forEach(assertRule);
  let remaining = amount;
  return [...rules]
    .sort((a, b) => compareSources(a.source, b.source))
    .map((rule) => {
      const owed = owedToPartner(amount, rule);
      const granted = Math.min(owed, remaining);
      remaining -= granted;
      return {
        source: rule.source,
        creditorBusinessId: rule.partnerBusinessId,
        amount: granted,
        capped: granted < owed,
      };
    });
}
