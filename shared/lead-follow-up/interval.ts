const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Gap between follow-ups when the caller names none. */
export const DEFAULT_FOLLOW_UP_INTERVAL_MS = 3 * DAY_MS;

/** Shortest and longest gap accepted. */
export const MIN_FOLLOW_UP_INTERVAL_MS = HOUR_MS;
export const MAX_FOLLOW_UP_INTERVAL_MS = 365 * DAY_MS;

const UNIT_MS: Readonly<Record<string, number>> = {
  h: HOUR_MS,
  hr: HOUR_MS,
  hrs: HOUR_MS,
  hour: HOUR_MS,
  hours: HOUR_MS,
  d: DAY_MS,
  day: DAY_MS,
  days: DAY_MS,
  w: 7 * DAY_MS,
  wk: 7 * DAY_MS,
  wks: 7 * DAY_MS,
  week: 7 * DAY_MS,
  weeks: 7 * DAY_MS,
  month: 30 * DAY_MS,
  months: 30 * DAY_MS,
};

const WORDS: Readonly<Record<string, number>> = {
  hourly: HOUR_MS,
  daily: DAY_MS,
  weekly: 7 * DAY_MS,
  biweekly: 14 * DAY_MS,
  fortnightly: 14 * DAY_MS,
  monthly: 30 * DAY_MS,
};

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  ten: 10,
  fourteen: 14,
};

/** Longest `followUpInterval` read, after trimming; anything longer is refused before any pattern runs. */
export const MAX_FOLLOW_UP_INTERVAL_LENGTH = 64;

/**
 * The patterns below are linear: in each, neighbouring quantifiers match
 * disjoint characters (digits, letters, spaces, "-"), so the engine never
 * has two ways to split the same run.
 */
const NUMBER = /^\d+(?:\.\d+)?$/;
const ISO_DURATION = /^p(?:(\d+(?:\.\d+)?)w)?(?:(\d+(?:\.\d+)?)d)?(?:t(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?)?$/;
/** "[every ]3 days", "3-day", "3days", "two weeks", "a week", "week". */
const AMOUNT_AND_UNIT = /^(?:every\s+)?(?:(\d+(?:\.\d+)?)(?:\s*-)?\s*|([a-z]+)[\s-]+)?([a-z]+)$/;

/**
 * Parses `followUpInterval` into milliseconds: "3 days", "2 weeks", "12 hours",
 * "1 month" (30 days), "weekly", a bare number of days ("5"), or an ISO 8601
 * duration ("P3D", "P2W", "PT36H", "P1DT12H"). Returns undefined for text it
 * cannot read, text longer than 64 characters, or a gap outside 1 hour to
 * 365 days.
 */
export function parseFollowUpInterval(value: string): number | undefined {
  const input = value.trim().toLowerCase();
  if (input.length > MAX_FOLLOW_UP_INTERVAL_LENGTH) return undefined;
  const ms = WORDS[input] ?? parseIso(input) ?? parseWords(input);
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  return ms >= MIN_FOLLOW_UP_INTERVAL_MS && ms <= MAX_FOLLOW_UP_INTERVAL_MS ? Math.round(ms) : undefined;
}

/** The gap to use: the caller's `followUpInterval`, else 3 days. */
export function followUpIntervalMs(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_FOLLOW_UP_INTERVAL_MS;
  const ms = parseFollowUpInterval(value);
  if (ms === undefined) throw new RangeError(`Unreadable follow-up interval "${value.slice(0, MAX_FOLLOW_UP_INTERVAL_LENGTH)}"`);
  return ms;
}

function parseIso(input: string): number | undefined {
  const match = ISO_DURATION.exec(input);
  if (!match || input === 'p' || input.endsWith('t')) return undefined;
  const [, weeks, days, hours, minutes] = match;
  return Number(weeks ?? 0) * 7 * DAY_MS + Number(days ?? 0) * DAY_MS + Number(hours ?? 0) * HOUR_MS + Number(minutes ?? 0) * 60_000;
}

function parseWords(input: string): number | undefined {
  if (NUMBER.test(input)) return Number(input) * DAY_MS;
  const match = AMOUNT_AND_UNIT.exec(input);
  if (!match) return undefined;
  const [, digits, word, unitText] = match;
  const unit = UNIT_MS[unitText!];
  if (unit === undefined) return undefined;
  const amount = digits !== undefined ? Number(digits) : word !== undefined ? NUMBER_WORDS[word] : 1;
  return amount === undefined ? undefined : amount * unit;
}
