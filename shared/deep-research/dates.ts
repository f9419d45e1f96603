/**
 * Calendar dates as deep research takes and shows them: `YYYY-MM-DD`,
 * days only, no time zone (a result's publication day as its source gives it).
 */

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written `YYYY-MM-DD` (2025-02-29 and 2025-02-30 are not). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The day of a date as providers give it (`2025-04-12`, `2025-04-12T14:22:41`,
 * `2025-04-12T14:22:41.000Z`, `Apr 12, 2025`, ...), as `YYYY-MM-DD`; undefined
 * when there is none or it cannot be read. A value that starts with a day
 * keeps that day (no time zone shift).
 */
export function dayOf(value: string | undefined | null): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  const leading = /^(\d{4}-\d{2}-\d{2})(?:$|[T\s])/.exec(text)?.[1];
  if (leading) return isCalendarDate(leading) ? leading : undefined;
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) return undefined;
  const day = new Date(parsed).toISOString().slice(0, 10);
  return isCalendarDate(day) ? day : undefined;
}

/** Whether a known day lies within `[from, to]` (either bound may be absent; both inclusive). */
export function isWithin(day: string, from: string | undefined, to: string | undefined): boolean {
  if (from !== undefined && day < from) return false;
  if (to !== undefined && day > to) return false;
  return true;
}
