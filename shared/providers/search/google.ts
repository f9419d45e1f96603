import * as z from 'zod/mini';
import '../../platform/zod-messages';
import { joinBaseUrl } from '../../platform/base-url';
import { dayRange, hitOf, publicationDay } from './hits';
import { isTransientStatus, requestJson, safeToken, type Fetch, type ProviderAnswer, type ProviderRequest } from './http';
import { searchTimeoutsOf } from './policy';
import { SearchProviderError, type SearchHit, type SearchPage, type SearchProvider, type SearchQuery } from './port';
import type { SearchQuota } from './quota';
import { lazy } from '../../platform/memo';

/** Options of the Google Custom Search adapter (`GOOGLE_CSE_*` in docs/configuration.md). */
export interface GoogleSearchOptions {
  apiKey: string;
  /** The programmable search engine's id (`cx`). */
  engineId: string;
  /**
   * Endpoint root, path prefix kept; `/customsearch/v1` is appended.
   * @default 'https://customsearch.googleapis.com'
   */
  baseUrl?: string;
  /** The daily query counter shared by every worker; each page of 10 is one query. */
  quota: SearchQuota;
  /** Longest wait for one page. @default policy.ts, 8 s */
  timeoutMs?: number;
  /** Longest wait for all the pages of one search. @default policy.ts, 20 s */
  deadlineMs?: number;
  fetch?: Fetch;
  /** The clock that closes an open date range at today. */
  now?: () => number;
}

const GOOGLE = 'google';
const defaultBaseUrl = 'https://customsearch.googleapis.com';
const PAGE_SIZE = 10;
/** `start + num` may not exceed 100, so results 1–99 are the most one query reaches. */
const LAST_POSITION = 99;

/** Metatags that carry a page's publication date, most trusted first. */
const DATE_METATAGS = [
  'article:published_time',
  'og:published_time',
  'datepublished',
  'date',
  'dc.date',
  'dc.date.issued',
  'dcterms.date',
  'pubdate',
  'publishdate',
  'sailthru.date',
  'parsely-pub-date',
  'article:modified_time',
  'og:updated_time',
];

// Google's answers, their schemas built on first use: a search job usually asks one provider of the chain.
const itemSchema = lazy(() =>
  z.looseObject({
    title: z.string(),
    link: z.string(),
    snippet: z.optional(z.string()),
    pagemap: z.optional(z.looseObject({ metatags: z.optional(z.array(z.record(z.string(), z.unknown()))) })),
  }),
);
const answerSchema = lazy(() => z.looseObject({ items: z.optional(z.array(itemSchema())) }));
const errorSchema = lazy(() =>
  z.looseObject({
    error: z.looseObject({
      status: z.optional(z.unknown()),
      errors: z.optional(z.array(z.looseObject({ reason: z.optional(z.unknown()) }))),
    }),
  }),
);

/**
 * SearchProvider over the Google Custom Search JSON API: pages of 10
 * (`start + num ≤ 100`) until `maxResults`, each page one query of the
 * daily quota, all of a search's pages reserved before the first is sent.
 * Dates restrict natively (`sort=date:r:FROM:TO`); a page's publication
 * day comes from its metatags when they name one. The key travels in the
 * URL, so no URL ever reaches an error.
 */
export function createGoogleSearch(options: GoogleSearchOptions): SearchProvider {
  const endpoint = joinBaseUrl(options.baseUrl ?? defaultBaseUrl, '/customsearch/v1');
  const timeouts = searchTimeoutsOf(GOOGLE);
  const requestTimeoutMs = options.timeoutMs ?? timeouts.requestTimeoutMs;
  const deadlineMs = options.deadlineMs ?? timeouts.deadlineMs;
  const send = options.fetch ?? fetch;

  return {
    name: GOOGLE,
    async search(query: SearchQuery): Promise<SearchPage> {
      const wanted = Math.min(query.maxResults, LAST_POSITION);
      const pages = Math.ceil(wanted / PAGE_SIZE);
      if (!(await options.quota.reserve(pages))) {
        throw new SearchProviderError(GOOGLE, 'quota', `Google's daily query quota has fewer than the ${pages} queries this search needs`);
      }
      const deadline = AbortSignal.timeout(deadlineMs);
      const hits: SearchHit[] = [];
      let spent = 0;
      try {
        for (let start = 1; start <= wanted; start += PAGE_SIZE) {
          const num = Math.min(PAGE_SIZE, wanted - start + 1);
          const request: ProviderRequest = { provider: GOOGLE, label: 'Google', fetch: send, requestTimeoutMs, deadline, spent };
          const answer = await requestJson(request, pageUrl(endpoint, options, query, start, num));
          spent += 1;
          if (answer.status < 200 || answer.status > 299) throw await failure(answer, spent, options.quota);
          const items = readItems(answer.json, spent);
          hits.push(
            ...items.flatMap((item) => hitOf({ title: item.title, url: item.link, snippet: item.snippet, date: dateOf(item) }) ?? []),
          );
          if (items.length < num) break;
        }
      } catch (error) {
        if (error instanceof SearchProviderError) spent = error.requests;
        throw error;
      } finally {
        await giveBack(options.quota, pages - spent);
      }
      return { hits: hits.slice(0, query.maxResults), requests: spent };
    },
  };
}

function pageUrl(endpoint: URL, options: GoogleSearchOptions, query: SearchQuery, start: number, num: number): URL {
  const url = new URL(endpoint);
  url.searchParams.set('key', options.apiKey);
  url.searchParams.set('cx', options.engineId);
  url.searchParams.set('q', query.text);
  url.searchParams.set('num', String(num));
  url.searchParams.set('start', String(start));
  const range = dayRange(query, options.now ?? Date.now);
  if (range) url.searchParams.set('sort', `date:r:${compactDay(range.from)}:${compactDay(range.to)}`);
  return url;
}

function compactDay(day: string): string {
  return day.replaceAll('-', '');
}

type Item = z.infer<ReturnType<typeof itemSchema>>;

function readItems(json: unknown, spent: number): Item[] {
  const parsed = answerSchema().safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') || '(root)';
    throw new SearchProviderError(GOOGLE, 'malformed', `Google sent an answer of the wrong shape (at ${where})`, spent);
  }
  return parsed.data.items ?? [];
}

function dateOf(item: Item): string | undefined {
  for (const tags of item.pagemap?.metatags ?? []) {
    const lowered = Object.fromEntries(Object.entries(tags).map(([name, value]) => [name.toLowerCase(), value]));
    for (const name of DATE_METATAGS) {
      const day = publicationDay(lowered[name]);
      if (day !== undefined) return day;
    }
  }
  return undefined;
}

/**
 * The error of a non-2xx answer. Out of daily quota (429
 * `RESOURCE_EXHAUSTED` / `rateLimitExceeded`, or the older 403
 * `dailyLimitExceeded`) closes the counter for the day too.
 */
async function failure(answer: ProviderAnswer, spent: number, quota: SearchQuota): Promise<SearchProviderError> {
  const parsed = errorSchema().safeParse(answer.json);
  const status = parsed.success ? safeToken(parsed.data.error.status) : undefined;
  const reasons = parsed.success ? (parsed.data.error.errors ?? []).flatMap((entry) => safeToken(entry.reason) ?? []) : [];
  const named = [status, ...reasons].filter((token) => token !== undefined).join(' ');
  const message = `Google answered ${answer.status}${named ? ` ${named}` : ''}`;
  const outOfQuota =
    reasons.includes('dailyLimitExceeded') ||
    (answer.status === 429 && (status === 'RESOURCE_EXHAUSTED' || reasons.includes('rateLimitExceeded')));
  if (outOfQuota) {
    // Best effort: should the close fail, the next search asks Google once more and closes it then.
    await quota.exhaust().catch(() => undefined);
    return new SearchProviderError(GOOGLE, 'quota', `${message}: daily quota used up until midnight US Pacific`, spent, answer.status);
  }
  const kind = isTransientStatus(answer.status) ? 'transient' : 'rejected';
  return new SearchProviderError(GOOGLE, kind, message, spent, answer.status);
}

/**
 * Returns reserved queries that were not sent. Best effort: a lost release only leaves the day's counter high, never over Google's limit.
 */
async function giveBack(quota: SearchQuota, unsent: number): Promise<void> {
  if (unsent <= 0 || quota.release === undefined) return;
  try {
    await quota.release(unsent);
  } catch {
    // The counter stays conservative; the search's own outcome matters more.
  }
}
