import type { SearchHit } from './port';

/**
 * Helpers the adapters share to turn a provider's answer into SearchHits:
 * a publication day out of whatever date text the provider sends, plain
 * text out of snippets that carry markup, and only http(s) links.
 */

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ]\d)/;
const COMPACT_DAY = /^(\d{4})(\d{2})(\d{2})$/;
const HAS_YEAR = /\b(?:19|20)\d{2}\b/;
const HAS_TIME = /\d:\d{2}/;

/**
 * The publication day (YYYY-MM-DD) a provider's date text names, or
 * undefined when it names none or an impossible one: ISO dates and
 * date-times keep their own calendar day (the publisher's), compact
 * `YYYYMMDD` is read as such, and other texts with a year ("April 12, 2025",
 * "Sat, 12 Apr 2025 14:22:41 GMT") go through Date.parse. Relative ages
 * ("2 days ago") name no day.
 */
export function publicationDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const exact = ISO_DAY.exec(text) ?? COMPACT_DAY.exec(text);
  if (exact) return validDay(Number(exact[1]), Number(exact[2]), Number(exact[3]));
  if (!HAS_YEAR.test(text) || text.length > 64) return undefined;
  const parsed = new Date(Date.parse(text));
  if (Number.isNaN(parsed.getTime())) return undefined;
  // Without a time, Date.parse reads the text as local midnight: local fields give the day written.
  return HAS_TIME.test(text)
    ? validDay(parsed.getUTCFullYear(), parsed.getUTCMonth() + 1, parsed.getUTCDate())
    : validDay(parsed.getFullYear(), parsed.getMonth() + 1, parsed.getDate());
}

function validDay(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The start of a date range given only an end: before any page a search engine indexes. */
export const EARLIEST_DAY = '1990-01-01';

/**
 * The query's date range with both ends, for providers that need both
 * (Google's `sort=date:r:`, Brave's `freshness`): a missing start is
 * EARLIEST_DAY, a missing end today where the day is latest (UTC+14, so a
 * page published "today" anywhere is in); undefined when no date is given.
 */
export function dayRange(query: { dateFrom?: string; dateTo?: string }, now: () => number): { from: string; to: string } | undefined {
  if (query.dateFrom === undefined && query.dateTo === undefined) return undefined;
  const latestToday = new Date(now() + 14 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return { from: query.dateFrom ?? EARLIEST_DAY, to: query.dateTo ?? latestToday };
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Text without tags (Brave marks matches with `<strong>`), entities decoded, whitespace collapsed. */
export function plainText(value: string): string {
  return value
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (entity, name: string) => {
      if (name.startsWith('#')) {
        const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The link when it is an absolute http(s) URL; providers' other links (ftp:, relative) are not results. */
export function httpLink(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A hit from a provider's fields, or undefined when its link is not a usable URL. */
export function hitOf(fields: { title?: string | null; url: string; snippet?: string | null; date?: string }): SearchHit | undefined {
  const url = httpLink(fields.url);
  if (url === undefined) return undefined;
  const title = plainText(fields.title ?? '');
  return {
    title: title || new URL(url).hostname,
    url,
    snippet: plainText(fields.snippet ?? ''),
    ...(fields.date === undefined ? {} : { publishedDate: fields.date }),
  };
}
