import { deflateSync, gzipSync } from 'node:zlib';
import { BODY_LIMIT, BodyUnreadable, parseFormBody, parseJsonBody } from './body-parsers';
import type { ApiRequest } from './http-types';
import { InputRejected } from './input-rejection';

const req = (headers: Record<string, string> = {}) =>
  ({ headers: { 'content-type': 'application/json', ...headers } }) as unknown as ApiRequest;
const json = (body: string | Buffer, headers?: Record<string, string>) =>
  parseJsonBody(req(headers), Buffer.isBuffer(body) ? body : Buffer.from(body));

describe('parseJsonBody', () => {
  it('parses an object or an array; an empty body is {}', () => {
    expect(json(' {"amount": 100}')).toEqual({ amount: 100 });
    expect(json('[1]')).toEqual([1]);
    expect(json('')).toEqual({});
    expect(json('\uFEFF{"a":1}')).toEqual({ a: 1 });
  });

  it('refuses malformed JSON and top-level scalars (strict)', () => {
    expect(() => json('{bad')).toThrow(BodyUnreadable);
    expect(() => json('"str"')).toThrow(BodyUnreadable);
    expect(() => json('1')).toThrow(BodyUnreadable);
  });

  it('refuses bad UTF-8 and deep nesting before parsing', () => {
    expect(() => json(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]))).toThrow(InputRejected);
    expect(() => json('['.repeat(40) + ']'.repeat(40))).toThrow(InputRejected);
  });

  it('reads gzip and deflate bodies, refuses unknown encodings and bodies that inflate past the limit', () => {
    expect(json(gzipSync('{"a":1}'), { 'content-encoding': 'gzip' })).toEqual({ a: 1 });
    expect(json(deflateSync('{"a":2}'), { 'content-encoding': 'deflate' })).toEqual({ a: 2 });
    expect(() => json('{"a":1}', { 'content-encoding': 'compress' })).toThrow(BodyUnreadable);
    let err: unknown;
    try {
      json(gzipSync(`{"a":"${'x'.repeat(BODY_LIMIT)}"}`), { 'content-encoding': 'gzip' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BodyUnreadable);
    expect((err as BodyUnreadable).tooLarge).toBe(true);
  });

  it('refuses a charset that is not Unicode', () => {
    expect(() => json('{"a":1}', { 'content-type': 'application/json; charset=latin1' })).toThrow(BodyUnreadable);
    expect(json('{"a":1}', { 'content-type': 'application/json; charset=UTF-8' })).toEqual({ a: 1 });
  });

  it('reads JSON as UTF-8 only: a UTF-16 label is refused like any other charset', () => {
    const utf16 = Buffer.from('{"a":1}', 'utf16le');
    expect(() => json(utf16, { 'content-type': 'application/json; charset=utf-16le' })).toThrow(BodyUnreadable);
    expect(() => json(utf16)).toThrow(BodyUnreadable);
  });
});

describe('parseFormBody', () => {
  const form = (body: string) =>
    parseFormBody(req({ 'content-type': 'application/x-www-form-urlencoded' }), Buffer.from(body));

  it('parses flat keys: brackets are not nesting', () => {
    expect(form('checkout_id=chk_1&email=a%40b.co&x[y]=1')).toEqual({
      checkout_id: 'chk_1',
      email: 'a@b.co',
      'x[y]': '1',
    });
    expect(form('')).toEqual({});
  });

  it('refuses bad percent-encoding', () => {
    expect(() => form('checkout_id=%ZZ')).toThrow(InputRejected);
  });

  it('accepts UTF-8 and ISO-8859-1 labels, refuses other charsets; Latin-1 escapes are not UTF-8', () => {
    const labelled = (charset: string, body: string) =>
      parseFormBody(
        req({ 'content-type': `application/x-www-form-urlencoded; charset=${charset}` }),
        Buffer.from(body),
      );
    expect(labelled('UTF-8', 'name=J%C3%A9r%C3%B4me')).toEqual({ name: 'Jérôme' });
    expect(labelled('iso-8859-1', 'email=a%40b.co')).toEqual({ email: 'a@b.co' });
    expect(() => labelled('iso-8859-1', 'name=J%E9r%F4me')).toThrow(InputRejected);
    expect(() => labelled('windows-1252', 'email=a%40b.co')).toThrow(BodyUnreadable);
  });

  it('keeps every one of 1000 parameters and refuses 1001 as too large', () => {
    const params = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=${i}`).join('&');
    expect(Object.keys(form(params(1000)) as object)).toHaveLength(1000);
    let err: unknown;
    try {
      form(params(1001));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BodyUnreadable);
    expect((err as BodyUnreadable).tooLarge).toBe(true);
  });
});
