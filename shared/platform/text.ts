import { lazy } from './memo';

/**
 * Characters that must never reach text a person reads: C0 and C1 controls
 * (U+0000–U+001F, U+007F–U+009F) except tab and newline, and the bidi
 * controls that can reorder what a reader sees (LRM, RLM, ALM, the
 * embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const UNSAFE_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

const ANY_UNSAFE = new RegExp(UNSAFE_CHARACTERS.source);
const LINE_BREAK = /\r\n?/g;

/**
 * Runs of letters and digits, in any script. Built on first use, as every pattern with a Unicode property class is
 * (test/unit/regexp-at-import.test.ts tells why).
 */
export const WORD_RUNS = lazy(() => new RegExp(String.raw`[\p{L}\p{N}]+`, 'gu'));

/** The runs of letters and digits of `text`, in order: its words, punctuation and spaces aside. */
export function wordRunsOf(text: string): string[] {
  return text.match(WORD_RUNS()) ?? [];
}

/**
 * Cleans free text that may end up in generated copy: a carriage return
 * (alone or before a newline) becomes a newline, and every other control or
 * bidi character is removed. Idempotent and linear in the text's length.
 */
export function cleanText(value: string): string {
  return ANY_UNSAFE.test(value) ? value.replace(LINE_BREAK, '\n').replace(UNSAFE_CHARACTERS, '') : value;
}

/** Most distinct characters `unsafeCharactersIn` names. */
const MAX_NAMED = 8;

/**
 * The control and bidi characters a text holds, each once as "U+XXXX" in
 * order of first appearance, at most 8; empty when the text is safe to show.
 */
export function unsafeCharactersIn(value: string): string[] {
  const found: string[] = [];
  const pattern = new RegExp(UNSAFE_CHARACTERS.source);
  let rest = value;
  for (let match = pattern.exec(rest); match && found.length < MAX_NAMED; match = pattern.exec(rest)) {
    found.push(`U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
    rest = rest.slice(match.index + 1).replaceAll(match[0], '');
  }
  return found;
}

/**
 * `cleanText` applied to every string of a JSON-like value (object keys
 * included), for stored records such as a lead's preferences.
 */
export function cleanTextDeep(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanTextDeep);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [cleanText(key), cleanTextDeep(item)]));
  }
  return value;
}

/** At most `max` UTF-16 units of `value`, never splitting a surrogate pair (an emoji is kept whole or left out). */
export function cutText(value: string, max: number): string {
  if (value.length <= max) return value;
  const code = value.charCodeAt(max - 1);
  return value.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * A whole number with its thousands grouped as `toLocaleString('en-US')`
 * writes it (4000 → "4,000"), without Intl: the first Intl object or
 * locale call a process makes starts ICU, about as much work as the rest of
 * a cold start, too much for a schema's description built at import.
 */
export function groupedDigits(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
