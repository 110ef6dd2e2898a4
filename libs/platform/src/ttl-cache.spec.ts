import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('answers a value for less than its TTL after it was stored', () => {
    const cache = new TtlCache<string, number>(1_000, 10);
    cache.set('a', 1, 5_000);
    expect(cache.get('a', 5_000)).toBe(1);
    expect(cache.get('a', 5_999)).toBe(1);
    expect(cache.get('a', 6_000)).toBeUndefined();
    expect(cache.get('b', 5_000)).toBeUndefined();
  });

  it('stores nothing with a TTL of 0', () => {
    const cache = new TtlCache<string, number>(0, 10);
    cache.set('a', 1, 5_000);
    expect(cache.get('a', 5_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('when full, the oldest entry makes room; storing a key again takes no room', () => {
    const cache = new TtlCache<string, number>(1_000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('b', 3, 0);
    expect(cache.get('a', 0)).toBe(1);
    cache.set('c', 4, 0);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([undefined, 3, 4]);
  });

  it('forgets one key, or every value that matches', () => {
    const cache = new TtlCache<string, { business: number }>(1_000, 10);
    cache.set('k1', { business: 1 }, 0);
    cache.set('k2', { business: 1 }, 0);
    cache.set('k3', { business: 2 }, 0);
    cache.delete('k3');
    expect(cache.get('k3', 0)).toBeUndefined();
    cache.set('k3', { business: 2 }, 0);
    cache.deleteWhere((v) => v.business === 1);
    expect([cache.get('k1', 0), cache.get('k2', 0), cache.get('k3', 0)]).toEqual([
      undefined,
      undefined,
      { business: 2 },
    ]);
  });
});
