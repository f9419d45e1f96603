import { dayOf, isCalendarDate, isWithin } from '../../../shared/deep-research/dates';

describe('dates', () => {
  it.each(['2025-01-31', '2024-02-29', '2000-02-29', '1999-12-31'])('%s is a calendar date', (date) => {
    expect(isCalendarDate(date)).toBe(true);
  });

  it.each([
    '2025-02-29',
    '1900-02-29',
    '2025-02-30',
    '2025-04-31',
    '2025-13-01',
    '2025-00-10',
    '2025-01-00',
    '2025-1-5',
    '2025-01-01T00:00:00Z',
    ' 2025-01-01',
    '',
  ])('%p is not', (date) => {
    expect(isCalendarDate(date)).toBe(false);
  });

  it.each([
    ['2025-04-12', '2025-04-12'],
    ['2025-04-12T14:22:41', '2025-04-12'],
    ['2025-04-12T23:59:00-08:00', '2025-04-12'],
    ['2025-04-12 08:00', '2025-04-12'],
    ['Apr 12, 2025', expect.stringMatching(/^2025-04-1[12]$/)],
    ['2025-02-30T10:00:00', undefined],
    ['3 days ago', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('reads the day of %p', (value, day) => {
    expect(dayOf(value)).toEqual(day);
  });

  it('tells whether a day is within a range, bounds included and optional', () => {
    expect(isWithin('2025-03-01', '2025-03-01', '2025-03-31')).toBe(true);
    expect(isWithin('2025-03-31', '2025-03-01', '2025-03-31')).toBe(true);
    expect(isWithin('2025-02-28', '2025-03-01', undefined)).toBe(false);
    expect(isWithin('2025-04-01', undefined, '2025-03-31')).toBe(false);
    expect(isWithin('1990-01-01', undefined, undefined)).toBe(true);
  });
});
