import { MAX_JSON_DEPTH, checkJsonBytes, checkRequestTarget, findBadText, jsonDeeperThan } from './input-guard';

describe('input guard', () => {
  const nest = (levels: number) => Buffer.from('['.repeat(levels) + ']'.repeat(levels));

  it('measures JSON depth without counting brackets inside strings or after escapes', () => {
    expect(jsonDeeperThan(nest(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDeeperThan(nest(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDeeperThan(Buffer.from(`{"a":"${'['.repeat(100)}"}`), 2)).toBe(false);
    expect(jsonDeeperThan(Buffer.from(`{"a":"\\"${'{'.repeat(100)}"}`), 2)).toBe(false);
    expect(jsonDeeperThan(Buffer.from('{"a":{"b":{"c":1}}}'), 2)).toBe(true);
    expect(jsonDeeperThan(nest(1_000_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(checkJsonBytes(Buffer.from('{"a":"é"}'))).toBeUndefined();
    expect(checkJsonBytes(Buffer.from([0x7b, 0xff, 0x7d]))?.status).toBe(400);
    expect(checkJsonBytes(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]))?.status).toBe(400);
  });

  it('checks the path and query string: escapes, UTF-8, control characters, size', () => {
    expect(checkRequestTarget('/v1/transactions/verify?reference=r%C3%A9f+1')).toBeUndefined();
    expect(checkRequestTarget('/v1/x?a=%FF')?.status).toBe(400);
    expect(checkRequestTarget('/v1/x?a=%zz')?.status).toBe(400);
    expect(checkRequestTarget('/v1/x?a=%00')?.message).toContain('control characters');
    expect(checkRequestTarget('/v1/x?a=%09')?.message).toContain('control characters');
    expect(checkRequestTarget('/v1/x%0a')?.message).toContain('URL path');
    expect(checkRequestTarget(`/v1/x?a=${'a'.repeat(9000)}`)?.status).toBe(413);
  });

  it('finds control characters and unpaired surrogates in values and keys, allowing tab and line breaks', () => {
    expect(findBadText({ description: 'a\tb\nc\r\n', list: ['x', { y: 'z' }], n: 1, b: null })).toBeUndefined();
    expect(findBadText({ splits: [{ description: 'x\u0000' }] })).toMatchObject({
      status: 400,
      field: 'splits.0.description',
    });
    expect(findBadText({ a: '\u0085' })).toMatchObject({ field: 'a' });
    expect(findBadText({ a: 'x\ud800' })?.message).toContain('surrogate');
    expect(findBadText({ a: '\ud83d\ude00' })).toBeUndefined();
    expect(findBadText({ 'k\u0001': 1 })).toMatchObject({ field: 'k\\u0001' });
    expect(findBadText('plain\u0000')).toMatchObject({ field: 'body' });
  });
});
