import { encodePaynowMessage, fieldOf, parsePaynowMessage } from './paynow-form';

describe('Paynow message format', () => {
  it('keeps the order, lower-cases the keys and URL-decodes the values', () => {
    const parsed = parsePaynowMessage(
      'Status=Ok&BrowserUrl=http%3a%2f%2fwww.paynow.co.zw%3a7106%2fPayment%2fConfirmPayment%2f1169' +
        '&Error=Invalid+amount+field',
    );
    expect(parsed).toEqual({
      ok: true,
      fields: [
        ['status', 'Ok'],
        ['browserurl', 'http://www.paynow.co.zw:7106/Payment/ConfirmPayment/1169'],
        ['error', 'Invalid amount field'],
      ],
    });
    if (parsed.ok)
      expect(fieldOf(parsed.fields, 'BROWSERURL')).toBe('http://www.paynow.co.zw:7106/Payment/ConfirmPayment/1169');
  });

  it('takes a trailing newline, a trailing & and an empty value', () => {
    expect(parsePaynowMessage('status=Ok&instructions=&\r\n')).toEqual({
      ok: true,
      fields: [
        ['status', 'Ok'],
        ['instructions', ''],
      ],
    });
  });

  it.each([
    ['', 'empty message'],
    ['   ', 'empty message'],
    ['<!DOCTYPE html><html lang="en"><body>Service Unavailable</body></html>', 'not a form-encoded message'],
    ['<html><body>Paynow</body></html>', 'not a form-encoded message'],
    ['{"status":"Ok"}', 'not a form-encoded message'],
    ['status', 'not a form-encoded message'],
    ['=Ok', 'not a form-encoded message'],
    ['status=%E0%A4%A', 'not a form-encoded message'],
    ['sta tus=Ok', 'not a form-encoded message'],
    ['status=Ok&STATUS=Error', 'field status appears twice'],
    ['x='.padEnd(70_000, 'a'), 'message too large'],
  ])('refuses %p', (body, reason) => {
    expect(parsePaynowMessage(body)).toEqual({ ok: false, reason });
  });

  it('encodes as a form, in the given order, spaces as +', () => {
    expect(
      encodePaynowMessage([
        ['reference', 'TEST REF'],
        ['returnurl', 'http://www.google.com/search?q=returnurl&x=1'],
        ['additionalinfo', 'Café & co'],
      ]),
    ).toBe(
      'reference=TEST+REF&returnurl=http%3A%2F%2Fwww.google.com%2Fsearch%3Fq%3Dreturnurl%26x%3D1' +
        '&additionalinfo=Caf%C3%A9+%26+co',
    );
  });

  it('parses back what it encodes', () => {
    const fields = [
      ['reference', 'A+B = C&D'],
      ['additionalinfo', 'ünïcødé ✓ 100%'],
    ] as const;
    expect(parsePaynowMessage(encodePaynowMessage(fields))).toEqual({ ok: true, fields });
  });
});
