import { OZOW_KNOWN_REFUND_STATUSES, OZOW_KNOWN_STATUSES, mapOzowRefundStatus, mapOzowStatus } from './ozow-status';

describe('Ozow payment statuses', () => {
  it.each([
    ['Complete', 'success'],
    ['Cancelled', 'failed'],
    ['Error', 'failed'],
    ['Abandoned', 'failed'],
    ['PendingInvestigation', 'processing'],
    ['Pending', 'processing'],
  ])('%s → %s', (word, status) => {
    expect(mapOzowStatus(word)).toEqual({ providerStatus: word, status, recognized: true });
    expect(mapOzowStatus(` ${word.toUpperCase()} `)).toEqual({
      providerStatus: word.toUpperCase(),
      status,
      recognized: true,
    });
  });

  it('covers every documented status and nothing more', () => {
    expect([...OZOW_KNOWN_STATUSES].sort()).toEqual([
      'abandoned',
      'cancelled',
      'complete',
      'error',
      'pending',
      'pendinginvestigation',
    ]);
  });

  it.each(['Completed', 'Paid', '', 'Refunded', 'constructor', '__proto__'])(
    'an unknown word (%p) is processing, never final',
    (word) => {
      expect(mapOzowStatus(word)).toEqual({ providerStatus: word, status: 'processing', recognized: false });
    },
  );
});

describe('Ozow refund statuses', () => {
  it.each([
    ['Complete', 'success'],
    ['Failed', 'failed'],
    ['Cancelled', 'failed'],
    ['Returned', 'failed'],
    ['Pending', 'pending'],
    ['Submitted', 'pending'],
  ])('%s → %s', (word, status) => {
    expect(mapOzowRefundStatus(word)).toEqual({ providerStatus: word, status, recognized: true });
  });

  it('covers every documented refund status', () => {
    expect([...OZOW_KNOWN_REFUND_STATUSES].sort()).toEqual([
      'cancelled',
      'complete',
      'failed',
      'pending',
      'returned',
      'submitted',
    ]);
  });

  it('an unknown word leaves the refund pending', () => {
    expect(mapOzowRefundStatus('Reversed')).toEqual({
      providerStatus: 'Reversed',
      status: 'pending',
      recognized: false,
    });
  });
});
