import type { SearchHit } from '../providers/search/port';
import { valueSize } from '../platform/item-size';
import { cleanText } from '../platform/text';
import { dayOf, isWithin } from './dates';

/** One result as the response shows it. */
export interface ResearchResult {
  title: string;
  url: string;
  snippet: string;
  /** The URL's host without `www.`, in lower case. */
  domain: string;
  /** YYYY-MM-DD; absent when the provider did not know it. */
  publishedDate?: string;
}

/** Longest title and snippet kept (a command item must stay well below DynamoDB's 400 KB). */
const MAX_TITLE_LENGTH = 300;
const MAX_SNIPPET_LENGTH = 1_000;
const MAX_URL_LENGTH = 2_048;

/**
 * Most bytes the shaped results take together (kept in the command's
 * progress, then in its result with their analyses): later results that
 * would pass it are left out, the best-ranked stay.
 * Bound: ≤ 160 KiB. A hundred ordinary results take about 50 KB; a hundred
 * at every limit in three-byte characters would take about 650 KB.
 */
export const SHAPED_RESULTS_MAX_BYTES = 160 * 1024;

/** Query parameters that only say where a click came from; they never change the page. */
const TRACKING_PARAMETERS = new Set([
  'fbclid',
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'ref_src',
]);

const isTracking = (name: string): boolean => name.toLowerCase().startsWith('utm_') || TRACKING_PARAMETERS.has(name.toLowerCase());

/**
 * The key under which two URLs count as the same page: http and https
 * alike, host in lower case without `www.` and without the default port,
 * no fragment, no tracking parameters (utm_*, fbclid, gclid, ...), the other
 * parameters sorted, no trailing slash. Undefined for anything that is not
 * an http(s) URL.
 */
export function normalizeUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const host = hostWithoutWww(parsed.hostname);
  // The URL parser already drops a port that is its scheme's default; 80 and 443 count as default for either scheme.
  const port = parsed.port === '' || parsed.port === '80' || parsed.port === '443' ? '' : `:${parsed.port}`;
  const kept = [...parsed.searchParams]
    .filter(([name]) => !isTracking(name))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const search = kept.length > 0 ? `?${new URLSearchParams(kept).toString()}` : '';
  const path = parsed.pathname.replace(/\/+$/, '');
  return `${host}${port}${path}${search}`;
}

function hostWithoutWww(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** The host of an http(s) URL without `www.`, in lower case; undefined when it is not one. */
export function domainOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return hostWithoutWww(parsed.hostname) || undefined;
  } catch {
    return undefined;
  }
}

/** What a provider put in a title or snippet, as plain text: no tags, the common entities decoded, one line, at most `max` characters. */
export function plainText(value: string, max: number): string {
  // Bounded first, and a tag never spans another `<`: linear however the provider's text is made.
  const text = cleanText(value.slice(0, max * 4))
    .replace(/<[^<>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, entity: string) => ENTITIES[entity] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** What the final results are filtered by. */
export interface ResultLimits {
  dateFrom?: string;
  dateTo?: string;
  maxResults: number;
}

/**
 * Turns a provider's hits into the response's results, in the provider's
 * order: http(s) URLs only, de-duplicated by normalized URL (the first
 * occurrence wins), a known publication day outside the requested range
 * filtered out (an unknown one kept), and at most `maxResults` taking at
 * most {@link SHAPED_RESULTS_MAX_BYTES}.
 */
export function shapeResults(hits: readonly SearchHit[], limits: ResultLimits): ResearchResult[] {
  const seen = new Set<string>();
  const results: ResearchResult[] = [];
  let bytes = valueSize([]);
  for (const hit of hits) {
    if (results.length >= limits.maxResults) break;
    const url = hit.url.trim();
    const key = url.length <= MAX_URL_LENGTH ? normalizeUrl(url) : undefined;
    const domain = key === undefined ? undefined : domainOf(url);
    if (key === undefined || domain === undefined || seen.has(key)) continue;
    const publishedDate = dayOf(hit.publishedDate);
    if (publishedDate !== undefined && !isWithin(publishedDate, limits.dateFrom, limits.dateTo)) continue;
    seen.add(key);
    const result: ResearchResult = {
      title: plainText(hit.title, MAX_TITLE_LENGTH) || domain,
      url,
      snippet: plainText(hit.snippet, MAX_SNIPPET_LENGTH),
      domain,
      ...(publishedDate ? { publishedDate } : {}),
    };
    bytes += 1 + valueSize(result);
    if (bytes > SHAPED_RESULTS_MAX_BYTES) break;
    results.push(result);
  }
  return results;
}
