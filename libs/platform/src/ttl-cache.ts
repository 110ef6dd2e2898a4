/**
 * A bounded in-memory cache whose entries last `ttlMs` (0 stores nothing), the oldest making room when full. For values
 * that may be briefly stale on one replica, such as request-path settings; the owner evicts what it changes.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; storedAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value stored for `key` less than the TTL before `now`, if any. */
  get(key: K, now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    return hit !== undefined && now - hit.storedAt < this.ttlMs ? hit.value : undefined;
  }

  set(key: K, value: V, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, storedAt: now });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches (e.g. all those of one business). */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }
}
