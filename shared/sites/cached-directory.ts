import type { SiteDirectory } from './directory';

/**
 * Keeps sites and their small collections (agents, users) in memory for a
 * short time, so the accept path does not read them on every request.
 * Leads are never cached: a lead imported again reaches the next request
 * at once. Changes to a
 * site reach running API functions within `ttlMs`.
 */
export function cachedSiteDirectory(inner: SiteDirectory, ttlMs: number, now: () => number = Date.now): SiteDirectory {
  const cache = new Map<string, { until: number; value: Promise<unknown> }>();
  const remember = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = cache.get(key);
    if (hit && hit.until > now()) return hit.value as Promise<T>;
    const value = load();
    cache.set(key, { until: now() + ttlMs, value });
    // Only answers are kept: a failure or an absence (a site imported a moment later) is asked again.
    value.then(
      (found) => {
        if (found === undefined) cache.delete(key);
      },
      () => cache.delete(key),
    );
    return value;
  };
  const cacheable = new Set(['agents', 'users', 'visitors']);
  return {
    getSite: (siteId) => remember(`site:${siteId}`, () => inner.getSite(siteId)),
    getItem: (siteId, kind, id) =>
      cacheable.has(kind)
        ? remember(`item:${siteId}:${kind}:${id}`, () => inner.getItem(siteId, kind, id))
        : inner.getItem(siteId, kind, id),
    listItems: (siteId, kind, limit) =>
      cacheable.has(kind)
        ? remember(`list:${siteId}:${kind}:${limit}`, () => inner.listItems(siteId, kind, limit))
        : inner.listItems(siteId, kind, limit),
  };
}
