import { jest } from '@jest/globals';
import { lazy, onFirstUse } from '../../shared/platform/memo';

describe('lazy', () => {
  it('builds nothing until first use, then builds once and answers the same value', () => {
    let builds = 0;
    const value = lazy(() => ({ built: ++builds }));
    expect(builds).toBe(0);

    const first = value();
    const second = value();

    expect(builds).toBe(1);
    expect(first).toEqual({ built: 1 });
    expect(second).toBe(first);
  });

  it('keeps a falsy value rather than building it again', () => {
    let builds = 0;
    const value = lazy(() => {
      builds += 1;
      return undefined;
    });

    expect(value()).toBeUndefined();
    expect(value()).toBeUndefined();
    expect(builds).toBe(1);
  });

  it('builds again after a build that threw', () => {
    let builds = 0;
    const value = lazy(() => {
      builds += 1;
      if (builds === 1) throw new Error('first build fails');
      return builds;
    });

    expect(() => value()).toThrow('first build fails');
    expect(value()).toBe(2);
    expect(value()).toBe(2);
  });
});

describe('onFirstUse', () => {
  it('resolves nothing until first use, then once for concurrent and later callers, kept however long after', async () => {
    jest.useFakeTimers();
    try {
      let resolutions = 0;
      const value = onFirstUse(async () => ({ resolved: ++resolutions }));
      expect(resolutions).toBe(0);

      const [first, second] = await Promise.all([value(), value()]);
      jest.advanceTimersByTime(365 * 24 * 3_600_000);
      const later = await value();

      expect(resolutions).toBe(1);
      expect(second).toBe(first);
      expect(later).toBe(first);
    } finally {
      jest.useRealTimers();
    }
  });

  it('resolves again on the next use after a resolution that failed', async () => {
    let resolutions = 0;
    const value = onFirstUse(async () => {
      resolutions += 1;
      if (resolutions === 1) throw new Error('first import fails');
      return resolutions;
    });

    await expect(value()).rejects.toThrow('first import fails');
    await expect(value()).resolves.toBe(2);
    await expect(value()).resolves.toBe(2);
  });
});
