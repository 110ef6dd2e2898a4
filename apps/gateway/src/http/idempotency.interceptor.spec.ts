import { canonicalJson } from './idempotency.interceptor';

describe('canonicalJson: the Idempotency-Key fingerprint compares parameters, not bytes', () => {
  it('the same parameters with keys in another order spell the same', () => {
    const a = { amount: 100, email: 'a@example.com', meta: { b: 1, a: [2, { y: 1, x: 2 }] } };
    const b = { meta: { a: [2, { x: 2, y: 1 }], b: 1 }, email: 'a@example.com', amount: 100 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });

  it('different values, array order or types spell differently', () => {
    expect(canonicalJson({ amount: 100 })).not.toBe(canonicalJson({ amount: 101 }));
    expect(canonicalJson({ amount: 100 })).not.toBe(canonicalJson({ amount: '100' }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson(null)).toBe('null');
  });
});
