import { descriptionProblem, descriptionToStore, mergeMetadata, metadataProblems, metadataToStore } from './metadata';

const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

describe('metadataProblems', () => {
  it('accepts absence, null, "" and Stripe’s limits exactly', () => {
    for (const ok of [
      undefined,
      null,
      '',
      {},
      keys(50),
      { ['k'.repeat(40)]: 'x'.repeat(500) },
      { emoji: '😀'.repeat(500) },
    ])
      expect(metadataProblems(ok)).toEqual([]);
  });

  it('names the key at fault, one rule per key, type before format before range', () => {
    expect(
      metadataProblems({ ['k'.repeat(41)]: 'x', 'a[b]': 'x', n: 1, long: 'x'.repeat(501), deep: { a: 'b' } }),
    ).toEqual([
      { field: 'metadata.n', message: 'must be a string (not number)' },
      { field: 'metadata.deep', message: 'must be a string (nested objects and arrays are not allowed)' },
      { field: 'metadata.a[b]', message: 'key must not contain square brackets' },
      { field: `metadata.${'k'.repeat(41)}`, message: 'key must be at most 40 characters' },
      { field: 'metadata.long', message: 'must be at most 500 characters' },
    ]);
  });

  it('counts keys and rejects what is not an object', () => {
    expect(metadataProblems(keys(51))).toEqual([{ field: 'metadata', message: 'may have at most 50 keys (has 51)' }]);
    for (const bad of [[], ['a'], 'x', 3, true]) expect(metadataProblems(bad)[0].field).toBe('metadata');
    expect(metadataProblems({ '': 'x' })).toEqual([{ field: 'metadata', message: 'keys must not be empty' }]);
  });
});

describe('descriptionProblem', () => {
  it('allows a string of up to 1000 characters or null', () => {
    expect(descriptionProblem('d'.repeat(1000))).toBeNull();
    expect(descriptionProblem(null)).toBeNull();
    expect(descriptionProblem('d'.repeat(1001))).toEqual({
      field: 'description',
      message: 'must be at most 1000 characters',
    });
    expect(descriptionProblem(5)).toEqual({ field: 'description', message: 'must be a string' });
  });

  it('a required one (a payment link’s) is a string of 1 to 1000 characters', () => {
    const required = { required: true };
    expect(descriptionProblem('d', 'description', required)).toBeNull();
    expect(descriptionProblem('😀'.repeat(1000), 'description', required)).toBeNull();
    expect(descriptionProblem(undefined, 'description', required)).toEqual({
      field: 'description',
      message: 'is required',
    });
    expect(descriptionProblem(null, 'description', required)).toEqual({
      field: 'description',
      message: 'must be a string',
    });
    for (const bad of ['', 'd'.repeat(1001)])
      expect(descriptionProblem(bad, 'description', required)).toEqual({
        field: 'description',
        message: 'must be 1 to 1000 characters',
      });
  });
});

describe('storing and updating', () => {
  it('stores {} for none and drops keys set to ""', () => {
    expect(metadataToStore(undefined)).toEqual({});
    expect(metadataToStore(null)).toEqual({});
    expect(metadataToStore('')).toEqual({});
    expect(metadataToStore({ a: '1', b: '' })).toEqual({ a: '1' });
    expect(descriptionToStore('')).toBeNull();
    expect(descriptionToStore('x')).toBe('x');
  });

  it('merges as Stripe does: absent keeps, "" removes a key, null or "" removes all', () => {
    const current = { a: '1', b: '2' };
    expect(mergeMetadata(current, undefined)).toEqual(current);
    expect(mergeMetadata(current, { b: '', c: '3' })).toEqual({ a: '1', c: '3' });
    expect(mergeMetadata(current, null)).toEqual({});
    expect(mergeMetadata(current, '')).toEqual({});
    expect(current).toEqual({ a: '1', b: '2' });
    const proto = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    expect(Object.keys(mergeMetadata(current, proto))).toEqual(['a', 'b', '__proto__']);
    expect(Object.keys(metadataToStore(proto))).toEqual(['__proto__']);
  });
});
