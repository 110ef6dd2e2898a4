import { REFUND_STATUSES, TRANSACTION_STATUSES, type TransactionStatus } from '@payments/contracts';
import { canRefundTransition, canTransition, isFinal } from './status-machine';

const ALLOWED = new Set(['pending→processing', 'pending→failed', 'processing→success', 'processing→failed']);

describe('transaction status machine', () => {
  const pairs: [TransactionStatus, TransactionStatus][] = TRANSACTION_STATUSES.flatMap((from) =>
    TRANSACTION_STATUSES.map((to) => [from, to] as [TransactionStatus, TransactionStatus]),
  );

  it('covers all 16 (from, to) pairs of the four statuses', () => {
    expect(TRANSACTION_STATUSES).toEqual(['pending', 'processing', 'success', 'failed']);
    expect(pairs).toHaveLength(16);
  });

  it.each(pairs)('%s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(ALLOWED.has(`${from}→${to}`));
  });

  it('allows exactly four transitions', () => {
    expect(pairs.filter(([from, to]) => canTransition(from, to))).toEqual([
      ['pending', 'processing'],
      ['pending', 'failed'],
      ['processing', 'success'],
      ['processing', 'failed'],
    ]);
  });

  it('never allows staying in the same status', () => {
    for (const s of TRANSACTION_STATUSES) expect(canTransition(s, s)).toBe(false);
  });

  it('never goes back to pending', () => {
    for (const s of TRANSACTION_STATUSES) expect(canTransition(s, 'pending')).toBe(false);
  });

  it.each([
    ['pending', false],
    ['processing', false],
    ['success', true],
    ['failed', true],
  ] as [TransactionStatus, boolean][])('isFinal(%s) is %s', (status, final) => {
    expect(isFinal(status)).toBe(final);
  });

  it('final statuses have no way out, non-final ones have at least one', () => {
    for (const from of TRANSACTION_STATUSES) {
      const exits = TRANSACTION_STATUSES.filter((to) => canTransition(from, to));
      expect(exits.length === 0).toBe(isFinal(from));
    }
  });
});

describe('refund status machine', () => {
  const STATUSES = REFUND_STATUSES;
  it('moves from pending to success or failed, once, and never back', () => {
    const allowed = STATUSES.flatMap((from) =>
      STATUSES.filter((to) => canRefundTransition(from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed).toEqual(['pending→success', 'pending→failed']);
  });
});
