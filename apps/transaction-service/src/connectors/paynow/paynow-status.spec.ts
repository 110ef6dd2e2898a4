import { PAYNOW_KNOWN_STATUSES, mapPaynowStatus } from './paynow-status';

describe('Paynow status map', () => {
  // Every status word: the docs' table, test mode's FAILED, and the older SDK's two.
  it.each([
    ['Paid', 'success', false],
    ['Awaiting Delivery', 'success', false],
    ['Delivered', 'success', false],
    ['Refunded', 'success', true],
    ['Cancelled', 'failed', false],
    ['Failed', 'failed', false],
    ['Disputed', 'failed', false],
    ['Created', 'processing', false],
    ['Sent', 'processing', false],
    ['Created But Not Paid', 'processing', false],
    ['Awaiting Redirect', 'pending', false],
  ])('%s → %s', (word, status, refunded) => {
    expect(mapPaynowStatus(word)).toEqual({ providerStatus: word, status, recognized: true, refunded });
  });

  it('knows exactly the statuses listed above', () => {
    expect([...PAYNOW_KNOWN_STATUSES].sort()).toEqual(
      [
        'paid',
        'awaiting delivery',
        'delivered',
        'refunded',
        'cancelled',
        'failed',
        'disputed',
        'created',
        'sent',
        'created but not paid',
        'awaiting redirect',
      ].sort(),
    );
  });

  it.each([
    ['FAILED', 'failed'],
    ['paid', 'success'],
    ['  PAID\t', 'success'],
    ['awaiting  DELIVERY', 'success'],
    ['cAnCeLlEd', 'failed'],
    ['AWAITING REDIRECT', 'pending'],
  ])('reads %p without regard to case and spaces → %s', (word, status) => {
    const meaning = mapPaynowStatus(word);
    expect(meaning.status).toBe(status);
    expect(meaning.recognized).toBe(true);
    expect(meaning.providerStatus).toBe(word.trim());
  });

  it.each(['Ok', 'Error', 'NotFound', 'Pending', 'Paid!', '', 'toString', '__proto__', 'Insufficient balance'])(
    'keeps the unknown word %p not final and flagged',
    (word) => {
      expect(mapPaynowStatus(word)).toEqual({
        providerStatus: word.trim(),
        status: 'processing',
        recognized: false,
        refunded: false,
      });
    },
  );
});
