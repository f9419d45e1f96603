import { ExpiringLru } from '../../shared/platform/expiring-lru';

describe('ExpiringLru', () => {
  it('forgets the least recently used entry beyond its bound', () => {
    const cache = new ExpiringLru<string, number>(2);
    cache.set('a', 1, 100);
    cache.set('b', 2, 100);
    expect(cache.get('a', 0)).toBe(1);
    cache.set('c', 3, 100);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0), cache.size]).toEqual([1, undefined, 3, 2]);
  });

  it('drops an entry once its deadline has passed', () => {
    const cache = new ExpiringLru<string, number>(2);
    cache.set('a', 1, 100);
    expect(cache.get('a', 99)).toBe(1);
    expect(cache.get('a', 100)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('moves a deadline or deletes only while the entry still holds the given value', () => {
    const cache = new ExpiringLru<string, number>(2);
    cache.set('a', 1, 100);
    cache.set('a', 2, 100);
    cache.expireAt('a', 1, 10);
    cache.delete('a', 1);
    expect(cache.get('a', 50)).toBe(2);
    cache.expireAt('a', 2, 10);
    expect(cache.get('a', 50)).toBeUndefined();
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new ExpiringLru(0)).toThrow('maxEntries');
  });
});
