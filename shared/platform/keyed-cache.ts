import type { Clock } from './clock';

/**
 * The answers of `load`, kept per key for `ttlMs`: a read that many calls
 * make and whose answer rarely changes (whether a tenant has webhook
 * endpoints, a CRM connection). An answer is read again once `generation()`
 * has moved on since it was read (a change made in this process), and a
 * load that failed is not kept.
 */
export function keyedCache<T>(
  load: (key: string) => Promise<T>,
  options: { ttlMs: number; clock: Pick<Clock, 'now'>; generation?: () => number },
): (key: string) => Promise<T> {
  const generation = options.generation ?? (() => 0);
  const cache = new Map<string, { until: number; generation: number; value: Promise<T> }>();
  return (key) => {
    const hit = cache.get(key);
    if (hit && hit.generation === generation() && hit.until > options.clock.now()) return hit.value;
    const value = load(key);
    cache.set(key, { until: options.clock.now() + options.ttlMs, generation: generation(), value });
    value.catch(() => {
      if (cache.get(key)?.value === value) cache.delete(key);
    });
    return value;
  };
}
