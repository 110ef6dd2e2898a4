import type { InitiateRequest } from '../connector';
import { paymentRequestHash } from './ozow-hash';
import { bankReference, byReferenceQuery, planPaymentRequest } from './ozow-request';

const C = { siteCode: 'TSTSTE0001', privateKey: '215114531AFF7134A94C88CEEA48E', apiKey: 'ak' };

function req(over: Partial<InitiateRequest> = {}): InitiateRequest {
  return {
    transactionId: 'txn_01HZX3Q0F5K2A7',
    reference: 'ORDER-1001',
    amountMinor: 2500,
    currency: 'ZAR',
    method: 'ozow',
    phone: '0821234567',
    email: 'jane@example.com',
    description: 'Two mugs',
    resultUrl: 'https://pay.example.com/v1/provider-notifications/ozow/txn_01HZX3Q0F5K2A7',
    returnUrl: 'https://pay.example.com/v1/provider-returns/ozow/txn_01HZX3Q0F5K2A7',
    ...over,
  };
}

describe('planning an Ozow payment request', () => {
  it('sends the fields in hash order, the return URL three times, and HashCheck over them', () => {
    const planned = planPaymentRequest(C, req());
    if (!planned.ok) throw new Error(planned.reason);
    expect(Object.keys(planned.body)).toEqual([
      'SiteCode',
      'CountryCode',
      'CurrencyCode',
      'Amount',
      'TransactionReference',
      'BankReference',
      'CancelUrl',
      'ErrorUrl',
      'SuccessUrl',
      'NotifyUrl',
      'IsTest',
      'HashCheck',
    ]);
    expect(planned.body).toMatchObject({
      SiteCode: 'TSTSTE0001',
      CountryCode: 'ZA',
      CurrencyCode: 'ZAR',
      Amount: '25.00',
      TransactionReference: 'txn_01HZX3Q0F5K2A7',
      BankReference: 'ORDER-1001',
      CancelUrl: req().returnUrl,
      ErrorUrl: req().returnUrl,
      SuccessUrl: req().returnUrl,
      NotifyUrl: req().resultUrl,
      IsTest: 'false',
    });
    const { HashCheck, ...fields } = planned.body;
    expect(HashCheck).toBe(paymentRequestHash(fields, C.privateKey));
    expect(HashCheck).toMatch(/^[0-9a-f]{128}$/);
  });

  it('sends no customer data: no e-mail, phone or description', () => {
    const planned = planPaymentRequest(C, req());
    const text = JSON.stringify(planned);
    for (const v of ['jane@example.com', '0821234567', 'Two mugs']) expect(text).not.toContain(v);
  });

  it('a test payment says IsTest true', () => {
    const planned = planPaymentRequest(C, req({ test: true }));
    expect(planned.ok && planned.body.IsTest).toBe('true');
  });

  it.each<[Partial<InitiateRequest>, string]>([
    [{ currency: 'USD' }, 'currency "USD" is not one Ozow takes (ZAR only)'],
    [{ method: 'ecocash' }, 'method "ecocash" is not an Ozow method'],
    [{ amountMinor: 0 }, 'amount must be a positive whole number of minor units'],
    [{ amountMinor: 10.5 }, 'amount must be a positive whole number of minor units'],
    [{ amountMinor: 1_000_000_000 }, 'amount is over what Ozow takes (decimal 9,2)'],
    [
      { transactionId: 'has space' },
      'transaction id must be 1 to 50 printable ASCII characters (Ozow TransactionReference)',
    ],
    [{ returnUrl: 'javascript:alert(1)' }, 'notification and return URLs must be http(s) URLs'],
  ])('refuses %p before sending', (over, reason) => {
    expect(planPaymentRequest(C, req(over))).toEqual({ ok: false, reason });
  });
});

describe('the bank reference', () => {
  it.each([
    ['ORDER-1001', 'ORDER-1001'],
    ['Order #1001 / blue', 'Order 1001 blue'],
    ['A very long merchant reference indeed', 'A very long merchant'],
    ['   spaced   out   ', 'spaced out'],
    ['ÄÖÜ#/*', 'txn01HZX3Q0F5K2A7'],
    ['----', 'txn01HZX3Q0F5K2A7'],
  ])('%p → %p (at most 20 letters, digits, spaces, dashes)', (reference, expected) => {
    const out = bankReference(reference, 'txn_01HZX3Q0F5K2A7');
    expect(out).toBe(expected);
    expect(out).toMatch(/^[A-Za-z0-9 -]{1,20}$/);
  });
});

describe('the status query', () => {
  it('asks by site code and our transaction id, with the test flag', () => {
    expect(byReferenceQuery(C, 'txn_1', false)).toBe('siteCode=TSTSTE0001&transactionReference=txn_1&isTest=false');
    expect(byReferenceQuery(C, 'txn_1', true)).toBe('siteCode=TSTSTE0001&transactionReference=txn_1&isTest=true');
  });
});
