import { displayPrefix, hashApiKey, newApiKey, parseApiKey } from './api-key-format';

const COMBOS = [
  ['secret', 'test', 'sk_test_'],
  ['secret', 'live', 'sk_live_'],
  ['public', 'test', 'pk_test_'],
  ['public', 'live', 'pk_live_'],
] as const;

describe('newApiKey', () => {
  it.each(COMBOS)('%s/%s keys look like %s + 40 base62 characters', (type, mode, prefix) => {
    const key = newApiKey(type, mode);
    expect(key.startsWith(prefix)).toBe(true);
    expect(key.slice(prefix.length)).toMatch(/^[0-9A-Za-z]{40}$/);
  });

  it('never repeats a key', () => {
    const keys = Array.from({ length: 200 }, () => newApiKey('secret', 'live'));
    expect(new Set(keys).size).toBe(200);
  });
});

describe('parseApiKey', () => {
  it.each(COMBOS)('round-trips a new %s/%s key', (type, mode) => {
    expect(parseApiKey(newApiKey(type, mode))).toEqual({ type, mode });
  });

  it('accepts 32 to 64 random characters', () => {
    expect(parseApiKey('sk_test_' + 'a'.repeat(32))).toEqual({ type: 'secret', mode: 'test' });
    expect(parseApiKey('pk_live_' + 'Z9'.repeat(32))).toEqual({ type: 'public', mode: 'live' });
  });

  const random = 'aB3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z0a7bCdEf';
  it.each([
    ['wrong type prefix', `xk_test_${random}`],
    ['wrong mode', `sk_prod_${random}`],
    ['upper-case prefix', `SK_TEST_${random}`],
    ['missing underscore', `sk_test${random}`],
    ['webhook secret', `whsec_${random}`],
    ['no random part', 'sk_test_'],
    ['too short (31)', 'sk_test_' + 'a'.repeat(31)],
    ['too long (65)', 'sk_test_' + 'a'.repeat(65)],
    ['dash', `sk_test_${random.slice(0, 20)}-${random.slice(20)}`],
    ['underscore in the random part', `sk_test_${random.slice(0, 20)}_${random.slice(20)}`],
    ['space', `sk_test_${random} `],
    ['leading space', ` sk_test_${random}`],
    ['newline', `sk_test_${random}\n`],
    ['non-ASCII', `sk_test_${random.slice(0, 39)}é`],
    ['Bearer scheme included', `Bearer sk_test_${random}`],
    ['empty', ''],
  ])('rejects a key with %s', (_why, key) => {
    expect(parseApiKey(key)).toBeNull();
  });
});

describe('hashApiKey', () => {
  it('is the 64-hex SHA-256 of the key', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey(newApiKey('secret', 'test'))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is stable for one key and differs between keys', () => {
    const a = newApiKey('secret', 'live');
    const b = newApiKey('secret', 'live');
    expect(hashApiKey(a)).toBe(hashApiKey(a));
    expect(hashApiKey(a)).not.toBe(hashApiKey(b));
  });

  it('does not contain the key', () => {
    const key = newApiKey('public', 'test');
    expect(hashApiKey(key)).not.toContain(key.slice(8));
  });
});

describe('displayPrefix', () => {
  it('shows the prefix and the first four random characters', () => {
    expect(displayPrefix('sk_test_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('sk_test_abcd');
    expect(displayPrefix('pk_live_WXYZ' + 'q'.repeat(36))).toBe('pk_live_WXYZ');
  });

  it.each(COMBOS)('shows 12 characters of a new %s/%s key', (type, mode, prefix) => {
    const key = newApiKey(type, mode);
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
    expect(displayPrefix(key).startsWith(prefix)).toBe(true);
  });
});
