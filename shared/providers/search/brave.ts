import * as z from 'zod/mini';
import '../../platform/zod-messages';
import { joinBaseUrl } from '../../platform/base-url';
import { dayRange, hitOf, publicationDay } from './hits';
import { isTransientStatus, requestJson, safeToken, type Fetch, type ProviderAnswer, type ProviderRequest } from './http';
import { searchTimeoutsOf } from './policy';
import { SearchProviderError, type SearchHit, type SearchPage, type SearchProvider, type SearchQuery } from './port';
import { lazy } from '../../platform/memo';

/** Options of the Brave Search adapter (`BRAVE_*` in docs/configuration.md). */
export interface BraveSearchOptions {
  apiKey: string;
  /**
   * Endpoint root, path prefix kept; `/res/v1/web/search` is appended.
   * @default 'https://api.search.brave.com'
   */
  baseUrl?: string;
  /** Longest wait for one page. @default policy.ts, 8 s */
  timeoutMs?: number;
  /** Longest wait for all the pages of one search. @default policy.ts, 20 s */
  deadlineMs?: number;
  fetch?: Fetch;
  /** The clock that closes an open date range at today. */
  now?: () => number;
}

const BRAVE = 'brave';
const defaultBaseUrl = 'https://api.search.brave.com';
const PAGE_SIZE = 20;
/** `offset` counts pages and stops at 9. */
const LAST_OFFSET = 9;
/** Longest pause between pages that Brave's per-second rate limit may ask for. */
const MAX_PAGE_PAUSE_MS = 2_000;

// Brave's answers, their schemas built on first use: a search job usually asks one provider of the chain.
const resultSchema = lazy(() =>
  z.looseObject({
    title: z.optional(z.string()),
    url: z.string(),
    description: z.optional(z.string()),
    age: z.optional(z.unknown()),
    page_age: z.optional(z.unknown()),
  }),
);
const answerSchema = lazy(() =>
  z.looseObject({
    query: z.optional(z.looseObject({ more_results_available: z.optional(z.boolean()) })),
    web: z.optional(z.looseObject({ results: z.array(resultSchema()) })),
  }),
);
const errorSchema = lazy(() => z.looseObject({ error: z.looseObject({ code: z.optional(z.unknown()) }) }));

/**
 * SearchProvider over the Brave Web Search API: pages of up to 20
 * (`count`, `offset` 0–9) until `maxResults`, dates as a `freshness` range,
 * `site:` operators honoured in `q`. Pages are paced by Brave's per-second
 * rate limit headers, so a plan allowing 1 request a second still pages.
 */
export function createBraveSearch(options: BraveSearchOptions): SearchProvider {
  const endpoint = joinBaseUrl(options.baseUrl ?? defaultBaseUrl, '/res/v1/web/search');
  const timeouts = searchTimeoutsOf(BRAVE);
  const requestTimeoutMs = options.timeoutMs ?? timeouts.requestTimeoutMs;
  const deadlineMs = options.deadlineMs ?? timeouts.deadlineMs;
  const send = options.fetch ?? fetch;
  const now = options.now ?? Date.now;

  return {
    name: BRAVE,
    async search(query: SearchQuery): Promise<SearchPage> {
      const count = Math.min(PAGE_SIZE, query.maxResults);
      const deadline = AbortSignal.timeout(deadlineMs);
      const hits: SearchHit[] = [];
      let spent = 0;
      for (let offset = 0; offset <= LAST_OFFSET && hits.length < query.maxResults; offset++) {
        const request: ProviderRequest = { provider: BRAVE, label: 'Brave', fetch: send, requestTimeoutMs, deadline, spent };
        const answer = await requestJson(request, pageUrl(endpoint, query, count, offset, now), {
          headers: { accept: 'application/json', 'x-subscription-token': options.apiKey },
        });
        spent += 1;
        if (answer.status < 200 || answer.status > 299) throw failure(answer, spent);
        const parsed = answerSchema().safeParse(answer.json);
        if (!parsed.success) {
          const where = parsed.error.issues[0]?.path.join('.') || '(root)';
          throw new SearchProviderError(BRAVE, 'malformed', `Brave sent an answer of the wrong shape (at ${where})`, spent);
        }
        const results = parsed.data.web?.results ?? [];
        hits.push(
          ...results.flatMap(
            (result) => hitOf({ title: result.title, url: result.url, snippet: result.description, date: dateOf(result) }) ?? [],
          ),
        );
        if (results.length < count || parsed.data.query?.more_results_available === false) break;
        if (hits.length < query.maxResults) await paceNextPage(answer.headers, deadline);
      }
      return { hits: hits.slice(0, query.maxResults), requests: spent };
    },
  };
}

function pageUrl(endpoint: URL, query: SearchQuery, count: number, offset: number, now: () => number): URL {
  const url = new URL(endpoint);
  url.searchParams.set('q', query.text);
  url.searchParams.set('count', String(count));
  url.searchParams.set('offset', String(offset));
  const range = dayRange(query, now);
  if (range) url.searchParams.set('freshness', `${range.from}to${range.to}`);
  return url;
}

/** `page_age` (an ISO date-time) when present, else `age` when it is a date rather than "2 days ago". */
function dateOf(result: z.infer<ReturnType<typeof resultSchema>>): string | undefined {
  return publicationDay(result.page_age) ?? publicationDay(result.age);
}

/**
 * The error of a non-2xx answer: 402 `CREDIT_EXHAUSTED` (and any quota
 * code) is quota; 429 `RATE_LIMITED` and 5xx are transient; 401, 403, 422
 * `SUBSCRIPTION_TOKEN_INVALID` and other 4xx are rejected.
 */
function failure(answer: ProviderAnswer, spent: number): SearchProviderError {
  const parsed = errorSchema().safeParse(answer.json);
  const code = parsed.success ? safeToken(parsed.data.error.code) : undefined;
  const message = `Brave answered ${answer.status}${code ? ` ${code}` : ''}`;
  if (answer.status === 402 || (code !== undefined && /QUOTA|CREDIT/i.test(code))) {
    return new SearchProviderError(BRAVE, 'quota', message, spent, answer.status);
  }
  return new SearchProviderError(BRAVE, isTransientStatus(answer.status) ? 'transient' : 'rejected', message, spent, answer.status);
}

/**
 * Waits before the next page when Brave says this second's allowance is
 * spent: `X-RateLimit-Remaining` and `X-RateLimit-Reset` list the
 * per-second window first (`0, 1999` and `1, 2591000`).
 */
async function paceNextPage(headers: Headers, deadline: AbortSignal): Promise<void> {
  const remaining = firstNumber(headers.get('x-ratelimit-remaining'));
  if (remaining === undefined || remaining > 0) return;
  const resetSeconds = firstNumber(headers.get('x-ratelimit-reset')) ?? 1;
  const pauseMs = Math.min(Math.max(resetSeconds, 0) * 1000, MAX_PAGE_PAUSE_MS);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, pauseMs);
    deadline.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

function firstNumber(header: string | null): number | undefined {
  const value = Number.parseFloat(header?.split(',')[0] ?? '');
  return Number.isNaN(value) ? undefined : value;
}
