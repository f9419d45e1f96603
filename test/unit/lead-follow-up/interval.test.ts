import { DEFAULT_FOLLOW_UP_INTERVAL_MS, followUpIntervalMs, parseFollowUpInterval } from '../../../shared/lead-follow-up/interval';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('parseFollowUpInterval', () => {
  it.each([
    ['3 days', 3 * DAY],
    ['1 day', DAY],
    ['2 weeks', 14 * DAY],
    ['a week', 7 * DAY],
    ['two weeks', 14 * DAY],
    ['every 5 days', 5 * DAY],
    ['every week', 7 * DAY],
    ['3days', 3 * DAY],
    ['10-day', 10 * DAY],
    ['12 hours', 12 * HOUR],
    ['1 month', 30 * DAY],
    ['weekly', 7 * DAY],
    ['Daily', DAY],
    ['4', 4 * DAY],
    ['P3D', 3 * DAY],
    ['p2w', 14 * DAY],
    ['PT36H', 36 * HOUR],
    ['P1DT12H', 36 * HOUR],
  ])('reads "%s"', (text, ms) => {
    expect(parseFollowUpInterval(text)).toBe(ms);
  });

  it.each(['', 'soon', '3 fortnights', 'P', 'PT', 'P3X', '0 days', '30 minutes', '2 years', '-3 days', 'P400D'])('refuses "%s"', (text) => {
    expect(parseFollowUpInterval(text)).toBeUndefined();
  });
});

describe('followUpIntervalMs', () => {
  it('defaults to 3 days', () => {
    expect(DEFAULT_FOLLOW_UP_INTERVAL_MS).toBe(3 * DAY);
    expect(followUpIntervalMs(undefined)).toBe(3 * DAY);
    expect(followUpIntervalMs('  ')).toBe(3 * DAY);
  });

  it('uses the given interval and refuses an unreadable one', () => {
    expect(followUpIntervalMs('2 weeks')).toBe(14 * DAY);
    expect(() => followUpIntervalMs('whenever')).toThrow(RangeError);
  });
});

describe('parseFollowUpInterval: length first', () => {
  it('refuses text longer than 64 characters, however readable, before any pattern runs', () => {
    const spaced = `3${' '.repeat(70)}days`;
    expect(parseFollowUpInterval(`3${' '.repeat(50)}days`)).toBe(3 * DAY);
    expect(parseFollowUpInterval(spaced)).toBeUndefined();
    expect(() => followUpIntervalMs(spaced)).toThrow(RangeError);
  });

  it('still trims before it measures', () => {
    expect(parseFollowUpInterval(`${' '.repeat(100)}2 weeks${' '.repeat(100)}`)).toBe(14 * DAY);
  });
});
