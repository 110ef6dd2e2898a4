import { parsePaynowMessage } from './paynow-form';
import { checkHash, hashOfFields, paynowHash, withHash } from './paynow-hash';

// The documentation's key and vectors (developers.paynow.co.zw, "Generating Hash" and "Validating Hash").
const KEY = '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977';
const OUTBOUND_HASH =
  '2A033FC38798D913D42ECB786B9B19645ADEDBDE788862032F1BD82CF3B92DEF' +
  '84F316385D5B40DBB35F1A4FD7D5BFE73835174136463CDD48C9366B0749C689';
const INBOUND =
  'status=Ok&browserurl=https%3a%2f%2fstaging.paynow.co.zw%2fPayment%2fConfirmPayment%2f9510' +
  '&pollurl=https%3a%2f%2fstaging.paynow.co.zw%2fInterface%2fCheckPayment%2f' +
  '%3fguid%3dc7ed41da-0159-46da-b428-69549f770413&paynowreference=9510';
const INBOUND_HASH =
  '750DD0B0DF374678707BB5AF915AF81C228B9058AD57BB7120569EC68BBB9C2E' +
  'FC1B26C6375D2BC562AC909B3CD6B2AF1D42E1A5E479FFAC8F4FB3FDCE71DF4D';

function fieldsOf(body: string) {
  const parsed = parsePaynowMessage(body);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.fields;
}

describe('Paynow hash', () => {
  it('reproduces the documentation vector for an outbound message', () => {
    const values = [
      '1201',
      'TEST REF',
      '99.99',
      'A test ticket transaction',
      'http://www.google.com/search?q=returnurl',
      'http://www.google.com/search?q=resulturl',
      'Message',
    ];
    expect(paynowHash(values, KEY)).toBe(OUTBOUND_HASH);
    const fields = [
      ['id', '1201'],
      ['reference', 'TEST REF'],
      ['amount', '99.99'],
      ['additionalinfo', 'A test ticket transaction'],
      ['returnurl', 'http://www.google.com/search?q=returnurl'],
      ['resulturl', 'http://www.google.com/search?q=resulturl'],
      ['status', 'Message'],
    ] as const;
    expect(withHash(fields, KEY).at(-1)).toEqual(['hash', OUTBOUND_HASH]);
  });

  it('reproduces the documentation vector for an inbound reply, values URL-decoded', () => {
    expect(hashOfFields(fieldsOf(INBOUND), KEY)).toBe(INBOUND_HASH);
    expect(checkHash(fieldsOf(`${INBOUND}&hash=${INBOUND_HASH}`), KEY)).toBe('valid');
  });

  it('accepts the hash in lower case and with the key Hash capitalised', () => {
    expect(checkHash(fieldsOf(`${INBOUND}&Hash=${INBOUND_HASH.toLowerCase()}`), KEY)).toBe('valid');
  });

  it('covers the values in message order, not the keys', () => {
    const swapped = 'browserurl=https%3a%2f%2fstaging.paynow.co.zw%2fPayment%2fConfirmPayment%2f9510&status=Ok';
    const original = 'status=Ok&browserurl=https%3a%2f%2fstaging.paynow.co.zw%2fPayment%2fConfirmPayment%2f9510';
    expect(hashOfFields(fieldsOf(swapped), KEY)).not.toBe(hashOfFields(fieldsOf(original), KEY));
    expect(hashOfFields(fieldsOf('a=1&b=2'), KEY)).toBe(hashOfFields(fieldsOf('x=1&y=2'), KEY));
  });

  it.each([
    ['missing', INBOUND],
    ['missing', `${INBOUND}&hash=`],
    ['mismatch', `${INBOUND}&hash=${INBOUND_HASH.slice(0, -1)}0`],
    ['mismatch', `${INBOUND}&hash=${INBOUND_HASH.slice(0, 20)}`],
    ['mismatch', `${INBOUND.replace('9510', '9511')}&hash=${INBOUND_HASH}`],
  ])('reports %s for %s', (expected, body) => {
    expect(checkHash(fieldsOf(body), KEY)).toBe(expected);
  });

  it('depends on the key', () => {
    expect(checkHash(fieldsOf(`${INBOUND}&hash=${INBOUND_HASH}`), '00000000-60e1-4ce5-ab6e-6b1eb2d4f977')).toBe(
      'mismatch',
    );
  });

  it('hashes UTF-8', () => {
    // "é" is two bytes in UTF-8: a Latin-1 hash would differ.
    expect(paynowHash(['café'], KEY)).toBe(paynowHash(['caf\u00e9'], KEY));
    expect(paynowHash(['café'], KEY)).not.toBe(paynowHash(['cafe'], KEY));
  });
});
