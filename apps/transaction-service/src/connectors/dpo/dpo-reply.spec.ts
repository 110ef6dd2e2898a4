import { interpretCreateReply, interpretRefundReply, interpretVerifyReply } from './dpo-reply';

const page = (t: string) => `https://dpo.test/payv2.php?ID=${t}`;
const api3g = (inner: string) => `<?xml version="1.0" encoding="utf-8"?><API3G>${inner}</API3G>`;

describe('createToken replies', () => {
  it('000 with a TransToken: accepted, pending, the payment page to redirect to', () => {
    expect(
      interpretCreateReply(
        api3g(
          '<Result>000</Result><ResultExplanation>Transaction created</ResultExplanation>' +
            '<TransToken>ABC-1</TransToken><TransRef>R1</TransRef>',
        ),
        page,
      ),
    ).toEqual({
      kind: 'accepted',
      status: 'pending',
      providerReference: 'ABC-1',
      pollUrl: null,
      redirectUrl: 'https://dpo.test/payv2.php?ID=ABC-1',
      instructions: null,
      authorizationCode: null,
      authorizationExpires: null,
    });
  });

  it('element order does not matter', () => {
    expect(
      interpretCreateReply(api3g('<TransToken>T</TransToken><TransRef>R</TransRef><Result>000</Result>'), page),
    ).toMatchObject({ kind: 'accepted', providerReference: 'T' });
  });

  it('000 without a TransToken is unknown', () => {
    expect(interpretCreateReply(api3g('<Result>000</Result><TransToken></TransToken>'), page)).toEqual({
      kind: 'unknown',
      sent: true,
      reason: 'createToken answered 000 without a TransToken',
    });
  });

  it.each(['801', '802', '803', '804', '902', '904', '905', '906', '922', '923', '930', '950', '960'])(
    '%s: declined by DPO with its explanation',
    (code) => {
      expect(
        interpretCreateReply(
          api3g(`<Result>${code}</Result><ResultExplanation>Because of 263771234567</ResultExplanation>`),
          page,
        ),
      ).toEqual({
        kind: 'declined',
        source: 'provider',
        reason: `Because of [number] (DPO ${code})`,
      });
      expect(interpretCreateReply(api3g(`<Result>${code}</Result>`), page)).toMatchObject({
        kind: 'declined',
        reason: expect.stringContaining(`(DPO ${code})`),
      });
    },
  );

  it('940 CompanyREF already paid: not a decline, unknown (sent), found later by CompanyRef', () => {
    expect(
      interpretCreateReply(
        api3g('<Result>940</Result><ResultExplanation>CompanyREF already exists and paid</ResultExplanation>'),
        page,
      ),
    ).toMatchObject({ kind: 'unknown', sent: true });
  });

  it.each([
    ['<html><body>502 Bad Gateway</body></html>', 'reply unreadable: not an API3G XML document'],
    ['', 'reply unreadable: empty reply'],
    [api3g('<ResultExplanation>x</ResultExplanation>'), 'reply without a Result'],
    [api3g('<Result>OK</Result>'), 'reply whose Result is not a three-digit code'],
    [api3g('<Result>123</Result>'), 'createToken answered an undocumented result code 123'],
  ])('%j: unknown (%s)', (body, reason) => {
    expect(interpretCreateReply(body, page)).toEqual({ kind: 'unknown', sent: true, reason });
  });
});

describe('verifyToken replies', () => {
  const paid = api3g(
    '<Result>000</Result><ResultExplanation>Transaction Paid</ResultExplanation><CustomerName>J</CustomerName>' +
      '<TransactionApproval>123</TransactionApproval><TransactionCurrency>USD</TransactionCurrency>' +
      '<TransactionAmount>10.50</TransactionAmount><FraudAlert>000</FraudAlert>',
  );

  it('000: success with the amount and currency, reference null, the token asked about', () => {
    expect(interpretVerifyReply(paid, 'TOK')).toEqual({
      kind: 'status',
      update: {
        providerStatus: 'Transaction Paid (000)',
        status: 'success',
        recognized: true,
        refunded: false,
        reference: null,
        amountMinor: 1050,
        currency: 'USD',
        providerReference: 'TOK',
        pollUrl: null,
      },
    });
  });

  it.each<[string, string, boolean]>([
    ['001', 'processing', true],
    ['002', 'processing', false],
    ['003', 'processing', true],
    ['005', 'processing', true],
    ['007', 'processing', true],
    ['900', 'pending', true],
    ['901', 'failed', true],
    ['903', 'failed', true],
    ['904', 'failed', true],
  ])('%s: %s (recognized %s)', (code, status, recognized) => {
    expect(
      interpretVerifyReply(api3g(`<Result>${code}</Result><TransactionAmount>1.00</TransactionAmount>`), null),
    ).toMatchObject({ kind: 'status', update: { status, recognized, amountMinor: 100, providerReference: null } });
  });

  it.each(['801', '802', '803', '804', '902', '950', '999', '940'])(
    '%s: unknown, never a statement about the payment (and never not_found)',
    (code) => {
      expect(
        interpretVerifyReply(api3g(`<Result>${code}</Result><ResultExplanation>No</ResultExplanation>`), 'TOK'),
      ).toEqual({ kind: 'unknown', reason: `verifyToken answered ${code}: No` });
    },
  );

  it('a reply carrying CompanyRef and TransactionToken passes them on (checked by the caller)', () => {
    expect(
      interpretVerifyReply(
        api3g('<Result>900</Result><CompanyRef>txn_9</CompanyRef><TransactionToken>T9</TransactionToken>'),
        null,
      ),
    ).toMatchObject({
      kind: 'status',
      update: { reference: 'txn_9', providerReference: 'T9', amountMinor: null },
    });
  });

  it('000 without an amount, or a malformed amount: unknown', () => {
    expect(interpretVerifyReply(api3g('<Result>000</Result>'), 'T')).toEqual({
      kind: 'unknown',
      reason: 'verifyToken 000 without a TransactionAmount',
    });
    expect(interpretVerifyReply(api3g('<Result>900</Result><TransactionAmount>1,5</TransactionAmount>'), 'T')).toEqual({
      kind: 'unknown',
      reason: 'verifyToken 900 with a malformed TransactionAmount',
    });
  });

  it('garbage is unknown', () => {
    expect(interpretVerifyReply('Down for maintenance', 'T')).toEqual({
      kind: 'unknown',
      reason: 'reply unreadable: not an API3G XML document',
    });
  });
});

describe('refundToken replies', () => {
  it('000: succeeded', () => {
    expect(
      interpretRefundReply(api3g('<Result>000</Result><ResultExplanation>Refund successful</ResultExplanation>')),
    ).toEqual({ kind: 'succeeded', providerRefundId: null });
  });

  it.each(['801', '802', '803', '804', '950', '999'])('%s: declined with the explanation', (code) => {
    expect(
      interpretRefundReply(
        api3g(`<Result>${code}</Result><ResultExplanation>Refund failed - amount too high</ResultExplanation>`),
      ),
    ).toEqual({ kind: 'declined', reason: `Refund failed - amount too high (DPO ${code})` });
  });

  it.each([api3g('<Result>123</Result>'), 'oops', api3g('<ResultExplanation>x</ResultExplanation>')])(
    '%j: unknown',
    (body) => {
      expect(interpretRefundReply(body)).toMatchObject({ kind: 'unknown' });
    },
  );
});
