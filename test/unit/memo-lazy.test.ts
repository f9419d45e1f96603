import { lazy } from '../../shared/platform/memo';

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
