import {
  identifyOzowNotification,
  paymentNotificationHash,
  refundNotificationHash,
  verifyOzowNotification,
} from './ozow-notification';

const C = { siteCode: 'TSTSTE0001', privateKey: '215114531AFF7134A94C88CEEA48E', apiKey: 'ak' };
const FORM = 'application/x-www-form-urlencoded';

function payment(over: Record<string, string | null> = {}): Record<string, string> {
  const base: Record<string, string | null> = {
    SiteCode: 'TSTSTE0001',
    TransactionId: '6f1c2b0a-1111-2222-3333-444455556666',
    TransactionReference: 'txn_1',
    Amount: '25.00',
    Status: 'Complete',
    Optional1: '',
    Optional2: '',
    Optional3: '',
    Optional4: '',
    Optional5: '',
    CurrencyCode: 'ZAR',
    IsTest: 'false',
    StatusMessage: 'Payment complete',
    ...over,
  };
  return Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== null));
}

function signed(fields: Record<string, string>, hash = paymentNotificationHash(fields, C.privateKey)): string {
  return new URLSearchParams({ ...fields, Hash: hash }).toString();
}

describe('Ozow payment notifications', () => {
  it('a signed Complete of this site: valid, success, with the TransactionId as provider reference', () => {
    expect(verifyOzowNotification(C, signed(payment()), FORM)).toEqual({
      kind: 'valid',
      update: {
        providerStatus: 'Complete',
        status: 'success',
        recognized: true,
        refunded: false,
        reference: 'txn_1',
        amountMinor: 2500,
        providerReference: '6f1c2b0a-1111-2222-3333-444455556666',
        pollUrl: null,
      },
    });
  });

  it.each([
    ['PendingInvestigation', 'processing'],
    ['Pending', 'processing'],
  ])('%s → %s', (status, mapped) => {
    expect(verifyOzowNotification(C, signed(payment({ Status: status })), FORM)).toMatchObject({
      kind: 'valid',
      update: { providerStatus: status, status: mapped },
    });
  });

  // A reference can hold several attempts: one that failed does not fail the payment (the customer
  // may pay on a second try); the status API, listing them all, is asked instead.
  it.each(['Cancelled', 'Error', 'Abandoned'])(
    'a signed %s of one attempt: ask Ozow about the whole payment',
    (status) => {
      const fields = payment({ Status: status });
      expect(verifyOzowNotification(C, signed(fields), FORM)).toEqual({
        kind: 'recheck',
        providerReference: null,
        transactionId: fields.TransactionReference,
      });
    },
  );

  it('hashes absent optionals as empty and the lower-cased values (the key as given)', () => {
    const fields = payment({
      Optional1: null,
      Optional2: null,
      Optional3: null,
      Optional4: null,
      Optional5: null,
      StatusMessage: null,
    });
    expect(verifyOzowNotification(C, signed(fields), undefined)).toMatchObject({ kind: 'valid' });
    expect(
      verifyOzowNotification(C, signed(fields, paymentNotificationHash(fields, C.privateKey).toUpperCase()), FORM),
    ).toMatchObject({ kind: 'valid' });
  });

  it.each<[string, string, string | undefined]>([
    ['a wrong hash', signed(payment(), 'ab'.repeat(64)), FORM],
    ['an amount changed after signing', signed(payment()).replace('Amount=25.00', 'Amount=2.50'), FORM],
    [
      'a status changed after signing',
      signed(payment({ Status: 'Cancelled' })).replace('Status=Cancelled', 'Status=Complete'),
      FORM,
    ],
  ])('%s: invalid (hash does not verify)', (_what, body, type) => {
    expect(verifyOzowNotification(C, body, type)).toEqual({ kind: 'invalid', reason: 'hash does not verify' });
  });

  it('refuses a hash made with another key', () => {
    expect(verifyOzowNotification(C, signed(payment(), paymentNotificationHash(payment(), 'other')), FORM)).toEqual({
      kind: 'invalid',
      reason: 'hash does not verify',
    });
  });

  it.each<[string, string, string | undefined, string]>([
    ['no hash', new URLSearchParams(payment()).toString(), FORM, 'no hash'],
    ['JSON', signed(payment()), 'application/json', 'not a form post'],
    ['another site', signed(payment({ SiteCode: 'OTHER0001' })), FORM, 'not for this site'],
    ['a missing TransactionId', signed(payment({ TransactionId: null })), FORM, 'field TransactionId missing'],
    ['a missing Status', signed(payment({ Status: '' })), FORM, 'field Status missing'],
    ['another currency', signed(payment({ CurrencyCode: 'USD' })), FORM, 'currency is not ZAR'],
    ['a malformed amount', signed(payment({ Amount: '25,00' })), FORM, 'amount malformed'],
    ['a strange IsTest', signed(payment({ IsTest: 'maybe' })), FORM, 'IsTest is neither true nor false'],
    ['a field given twice', `${signed(payment())}&Status=Cancelled`, FORM, 'field status given twice'],
    ['a huge body', `a=${'x'.repeat(20_000)}`, FORM, 'body too large'],
  ])('%s: invalid', (_what, body, type, reason) => {
    expect(verifyOzowNotification(C, body, type)).toEqual({ kind: 'invalid', reason });
  });

  it('reasons never quote a value', () => {
    const out = verifyOzowNotification(C, signed(payment({ SiteCode: 'SECRETSITE' })), FORM);
    expect(JSON.stringify(out)).not.toContain('SECRETSITE');
  });
});

function refund(over: Record<string, string> = {}): Record<string, string> {
  return {
    RefundId: 'R-77',
    TransactionId: '6f1c2b0a',
    CurrencyCode: 'ZAR',
    Amount: '12.50',
    Status: 'Complete',
    BankName: 'Standard Bank',
    AccountNumber: '0123456789',
    StatusMessage: '',
    ...over,
  };
}

describe('Ozow refund notifications', () => {
  it.each([
    ['Complete', 'success'],
    ['Failed', 'failed'],
    ['Cancelled', 'failed'],
    ['Returned', 'failed'],
    ['Pending', 'pending'],
    ['Submitted', 'pending'],
  ])('a signed %s → %s', (status, mapped) => {
    const fields = refund({ Status: status });
    const body = new URLSearchParams({ ...fields, Hash: refundNotificationHash(fields, C.privateKey) }).toString();
    expect(verifyOzowNotification(C, body, FORM)).toEqual({
      kind: 'refund',
      update: {
        providerRefundId: 'R-77',
        providerPaymentReference: '6f1c2b0a',
        providerStatus: status,
        status: mapped,
        amountMinor: 1250,
      },
    });
  });

  it('a bad hash is invalid, and no outcome carries the bank name or account number', () => {
    const fields = refund();
    const body = new URLSearchParams({ ...fields, Hash: 'cd'.repeat(64) }).toString();
    const out = verifyOzowNotification(C, body, FORM);
    expect(out).toEqual({ kind: 'invalid', reason: 'hash does not verify' });
    const good = verifyOzowNotification(
      C,
      new URLSearchParams({ ...fields, Hash: refundNotificationHash(fields, C.privateKey) }).toString(),
      FORM,
    );
    for (const o of [out, good]) {
      expect(JSON.stringify(o)).not.toContain('0123456789');
      expect(JSON.stringify(o)).not.toContain('Standard Bank');
    }
  });
});

describe('naming the payment of a notification posted to the account-wide URL', () => {
  it('is the TransactionReference, unverified; nothing for refunds, JSON or garbage', () => {
    expect(identifyOzowNotification(signed(payment()), FORM)).toBe('txn_1');
    expect(identifyOzowNotification(new URLSearchParams(refund()).toString(), FORM)).toBeNull();
    expect(identifyOzowNotification(signed(payment()), 'application/json')).toBeNull();
    expect(identifyOzowNotification('TransactionReference=has%20space', FORM)).toBeNull();
    expect(identifyOzowNotification('', FORM)).toBeNull();
  });
});
