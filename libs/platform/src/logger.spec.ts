import { redactText } from './logger';

const SK_TEST = 'sk_test_' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z0a7b';
const SK_LIVE = 'sk_live_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8';
const PK_LIVE = 'pk_live_' + 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8';
const PK_TEST = 'pk_test_' + 'abcdefghijklmnopqrstuvwxyz0123456789';
const WHSEC = 'whsec_' + 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/=';
const BEARER_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-_~+/=';

describe('redactText', () => {
  it.each([
    [SK_TEST, 'sk_test_'],
    [SK_LIVE, 'sk_live_'],
    [PK_LIVE, 'pk_live_'],
    [PK_TEST, 'pk_test_'],
    [WHSEC, 'whsec_'],
  ])('masks %s but keeps its prefix visible', (key, prefix) => {
    const out = redactText(`using key ${key} now`);
    expect(out).toBe(`using key ${prefix}[REDACTED] now`);
    expect(out).not.toContain(key.slice(prefix.length, prefix.length + 6));
  });

  it('masks a Bearer token and keeps the word Bearer', () => {
    const out = redactText(`Authorization: Bearer ${BEARER_TOKEN}`);
    expect(out).toBe('Authorization: Bearer [REDACTED]');
    expect(out).not.toContain('eyJ');
  });

  it('masks an API key sent as a Bearer token', () => {
    const out = redactText(`Bearer ${SK_LIVE}`);
    expect(out).not.toContain(SK_LIVE.slice(8));
    expect(out).toContain('[REDACTED]');
  });

  it('leaves digit runs that are not card numbers (Luhn) alone, e.g. millisecond timestamps', () => {
    expect(redactText('at 1700000000001 ms')).toBe('at 1700000000001 ms');
  });

  it('masks keys regardless of case of the Bearer scheme and of what precedes them', () => {
    expect(redactText('bearer abcdefghij')).toBe('bearer [REDACTED]');
    expect(redactText('my_sk_test_abcdef123')).toBe('my_sk_test_[REDACTED]');
    expect(redactText('whsec_abc-def_ghijkl')).toBe('whsec_[REDACTED]');
  });

  it.each(['4242424242424242', '5555555555554444', '378282246310005', '6011000990139424', '4242 4242 4242 4242', '4242-4242-4242-4242'])('masks the card number %s', (pan) => {
    const out = redactText(`card ${pan} declined`);
    expect(out).toBe('card [REDACTED_PAN] declined');
  });

  it('masks every secret in one line, not just the first', () => {
    const out = redactText(`a=${SK_TEST} b=${PK_LIVE} c=${WHSEC} pan=4242424242424242 again ${SK_TEST}`);
    expect(out).toBe('a=sk_test_[REDACTED] b=pk_live_[REDACTED] c=whsec_[REDACTED] pan=[REDACTED_PAN] again sk_test_[REDACTED]');
  });

  it('masks keys inside JSON text', () => {
    const out = redactText(JSON.stringify({ api_key: SK_TEST, note: 'ok' }));
    expect(out).toBe('{"api_key":"sk_test_[REDACTED]","note":"ok"}');
  });

  it.each([
    'transaction txn_4f9QabcdEFGH1234ijklMNOP initialized for 1015 USD',
    'status changed pending → processing',
    'sk_test_ is the prefix of a test secret key',
    'sk_test_abc is too short to be a key',
    'Bearer abc',
    'phone 0771234567 amount 123456789012',
    'see task_test_results2024 for details', // "sk_test_…" only in the middle of a word
    '',
  ])('leaves ordinary text alone: %p', (text) => {
    expect(redactText(text)).toBe(text);
  });
});
