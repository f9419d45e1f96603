/**
 * A bounded in-memory cache: at most `maxEntries` entries, each valid until
 * its own deadline (epoch ms). When full, the least recently used entry is
 * forgotten, so no stream of distinct keys can grow it without bound.
 */
export class ExpiringLru<K, V> {
  readonly #entries = new Map<K, { value: V; until: number }>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new Error(`ExpiringLru: maxEntries must be a positive integer (got ${maxEntries})`);
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.#entries.size;
  }

  /** The value of a live entry (which becomes the most recently used), or undefined; an expired entry is dropped. */
  get(key: K, now: number): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.until <= now) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` until `until`, as the most recently used entry, forgetting the least recently used ones beyond the bound. */
  set(key: K, value: V, until: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, until });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.maxEntries) break;
      this.#entries.delete(oldest);
    }
  }

  /** Moves the deadline of the entry for `key`, if it still holds `value` (a later `set` wins). */
  expireAt(key: K, value: V, until: number): void {
    const entry = this.#entries.get(key);
    if (entry?.value === value) entry.until = until;
  }

  /** Forgets the entry for `key`, if it still holds `value`. */
  delete(key: K, value: V): void {
    if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
  }
}
