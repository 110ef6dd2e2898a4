import { createHash } from 'node:crypto';
import { hashMatches, ozowHash, paymentRequestHash, refundRequestHash } from './ozow-hash';

const VECTOR = {
  SiteCode: 'TSTSTE0001',
  CountryCode: 'ZA',
  CurrencyCode: 'ZAR',
  Amount: '25.00',
  TransactionReference: '123',
  BankReference: 'ABC123',
  CancelUrl: 'http://demo.ozow.com/cancel.aspx',
  ErrorUrl: 'http://demo.ozow.com/error.aspx',
  SuccessUrl: 'http://demo.ozow.com/success.aspx',
  NotifyUrl: 'http://demo.ozow.com/notify.aspx',
  IsTest: 'false',
};
const KEY = '215114531AFF7134A94C88CEEA48E';
const EXPECTED =
  'eedcba106cd8fef3ba6cec5ec80de7d7d7fc90343028bf95b908718c671d0fe' +
  '885ca08b206d788de009d237a93c18e66edf6ede3f5ca7057e23474106465dcc6';

describe('Ozow hashes', () => {
  it("reproduces Ozow's documented HashCheck example", () => {
    expect(paymentRequestHash(VECTOR, KEY)).toBe(EXPECTED);
  });

  it('lower-cases the whole string, key included, before hashing', () => {
    const manual = createHash('sha512')
      .update(`${Object.values(VECTOR).join('')}${KEY}`.toLowerCase())
      .digest('hex');
    expect(manual).toBe(EXPECTED);
    expect(paymentRequestHash(VECTOR, KEY.toLowerCase())).toBe(EXPECTED);
  });

  it('follows the documented order, whatever order the fields are given in', () => {
    const reversed = Object.fromEntries(Object.entries(VECTOR).reverse());
    expect(paymentRequestHash(reversed, KEY)).toBe(EXPECTED);
  });

  it('absent and empty optionals add nothing; excluded and unknown fields are not hashed', () => {
    expect(paymentRequestHash({ ...VECTOR, Optional1: '', Customer: undefined }, KEY)).toBe(EXPECTED);
    expect(
      paymentRequestHash(
        {
          ...VECTOR,
          HashCheck: 'x',
          Token: 't',
          CustomerCellphoneNumber: '0821234567',
          GenerateShortUrl: 'true',
          Other: 'y',
        },
        KEY,
      ),
    ).toBe(EXPECTED);
    expect(paymentRequestHash({ ...VECTOR, AllowVariableAmount: 'false' }, KEY)).toBe(EXPECTED);
  });

  it('a present optional is hashed in its place', () => {
    const withOptional = paymentRequestHash({ ...VECTOR, Optional1: 'order-7' }, KEY);
    expect(withOptional).not.toBe(EXPECTED);
    expect(withOptional).toBe(
      ozowHash(
        ['TSTSTE0001', 'ZA', 'ZAR', '25.00', '123', 'ABC123', 'order-7', ...Object.values(VECTOR).slice(6)],
        KEY,
      ),
    );
    expect(paymentRequestHash({ ...VECTOR, AllowVariableAmount: 'true' }, KEY)).not.toBe(EXPECTED);
  });

  it('hashes a refund request over transactionId, amount, refundReason and notifyUrl, then the key', () => {
    const r = { transactionId: 'ABC-1', amount: '10.00', refundReason: 'Damaged', notifyUrl: 'https://x.test/n' };
    expect(refundRequestHash(r, 'KEY')).toBe(
      createHash('sha512').update('abc-110.00damagedhttps://x.test/nkey').digest('hex'),
    );
  });

  it('compares hashes without regard to case, refusing other lengths', () => {
    expect(hashMatches(EXPECTED.toUpperCase(), EXPECTED)).toBe(true);
    expect(hashMatches(` ${EXPECTED} `, EXPECTED)).toBe(true);
    expect(hashMatches(EXPECTED.slice(1), EXPECTED)).toBe(false);
    expect(hashMatches(`${EXPECTED.slice(0, -1)}0`, EXPECTED)).toBe(false);
    expect(hashMatches('', EXPECTED)).toBe(false);
  });
});
