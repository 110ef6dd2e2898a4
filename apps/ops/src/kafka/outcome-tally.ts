import type { ReplayOutcome, ReplayResult, ReplayResultRanges } from '@payments/contracts';

export type OutcomeCounts = Record<ReplayOutcome, number>;

/**
 * The outcomes a group reported for one live replay, each record counted once: one applied again after a consumer
 * restart is recognised by its replay-seq; a result without one (an older consumer) is counted as it comes.
 */
export class OutcomeTally {
  readonly counts: OutcomeCounts = { applied: 0, duplicate: 0, dead_lettered: 0 };
  private readonly seen: Uint8Array;

  constructor(private readonly sent: number) {
    this.seen = new Uint8Array(Math.ceil(sent / 8));
  }

  /** Counts a result; false when its record was counted already (or the outcome is unknown). */
  add(result: Pick<ReplayResult, 'outcome' | 'seq'>): boolean {
    if (!Object.hasOwn(this.counts, result.outcome)) return false;
    if (typeof result.seq === 'number' && Number.isInteger(result.seq) && result.seq >= 0 && result.seq < this.sent) {
      const [byte, bit] = [result.seq >> 3, 1 << (result.seq & 7)];
      if (this.seen[byte] & bit) return false;
      this.seen[byte] |= bit;
    }
    this.counts[result.outcome] += 1;
    return true;
  }

  /** Counts a results message: one record's result, or ranges of sequence numbers with their outcome. */
  addMessage(message: ReplayResult | ReplayResultRanges): void {
    if (!('ranges' in message)) {
      this.add(message);
      return;
    }
    if (!Array.isArray(message.ranges)) return;
    for (const [first, last, outcome] of message.ranges) {
      if (!Number.isInteger(first) || !Number.isInteger(last)) continue;
      // Only sequence numbers this run sent: each is counted once, like a result of its own.
      for (let seq = Math.max(0, first); seq <= Math.min(last, this.sent - 1); seq++) this.add({ outcome, seq });
    }
  }

  get total(): number {
    return this.counts.applied + this.counts.duplicate + this.counts.dead_lettered;
  }
}
