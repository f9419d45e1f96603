import { startLoopbackFake, type FakeAnswer, type LoopbackFake, type RecordedRequest } from './loopback';
import { generateResults, parseQueryText, type GeneratedResult } from './search-results';

/** Brave's usual failures, as its Web Search API answers them. */
export type BraveFailure =
  /** 429 RATE_LIMITED: this second's or month's allowance. */
  | 'rate-limit'
  /** 402 CREDIT_EXHAUSTED. */
  | 'credit-exhausted'
  /** 422 SUBSCRIPTION_TOKEN_INVALID. */
  | 'invalid-token'
  | 'server-error'
  /** A normal answer, 1.5 s late. */
  | 'slow'
  | 'malformed'
  | 'wrong-shape'
  | 'disconnect';

export interface BraveFakeOptions {
  /** The token it accepts. @default 'BSA-fake-brave-token' */
  apiKey?: string;
  /** Results that exist for any query. @default 200 */
  totalResults?: number;
  /** Every fifth result repeats an earlier URL in a www./trailing-slash variant. @default false */
  duplicates?: boolean;
  /** Requests allowed per second (Brave's free plan allows 1); over it: 429 RATE_LIMITED. @default unlimited */
  perSecondLimit?: number;
}

/** Loopback stand-in for the Brave Web Search API (`GET {base}/res/v1/web/search`). */
export interface BraveFake extends LoopbackFake<BraveFailure> {
  readonly apiKey: string;
  setResults(options: { totalResults?: number; duplicates?: boolean }): void;
}

const MONTHLY_ALLOWANCE = 15_000;

/**
 * Starts the fake on 127.0.0.1. It checks the token, `count` (1–20) and
 * `offset` (0–9), honours `freshness` ranges and `site:`, sends Brave's
 * rate limit headers (per second, then per month), and answers in Brave's
 * format: `<strong>` marks and entities in descriptions, a `page_age` on
 * some results, a dated or relative `age` on others.
 */
export async function startFakeBrave(options: BraveFakeOptions = {}): Promise<BraveFake> {
  const apiKey = options.apiKey ?? 'BSA-fake-brave-token';
  let totalResults = options.totalResults ?? 200;
  let duplicates = options.duplicates ?? false;
  const served: number[] = [];

  const rateHeaders = (now: number): Record<string, string> => {
    const lastSecond = served.filter((at) => now - at < 1_000).length;
    const limit = options.perSecondLimit;
    return {
      'x-ratelimit-limit': `${limit ?? 50}, ${MONTHLY_ALLOWANCE}`,
      'x-ratelimit-remaining': `${Math.max(0, (limit ?? 50) - lastSecond)}, ${MONTHLY_ALLOWANCE - served.length}`,
      'x-ratelimit-reset': `1, 2591000`,
    };
  };
  const error = (status: number, code: string, detail: string, headers: Record<string, string> = {}): FakeAnswer => ({
    status,
    body: { type: 'ErrorResponse', error: { id: 'c0ffee00-0000-4000-8000-000000000000', status, code, detail, meta: {} }, time: 1 },
    headers,
  });

  const fake = await startLoopbackFake<BraveFailure>({
    method: 'GET',
    endpoint: '/res/v1/web/search',
    answer(request: RecordedRequest) {
      const token = request.headers['x-subscription-token'];
      if (token !== apiKey) return error(422, 'SUBSCRIPTION_TOKEN_INVALID', `The provided subscription token ${String(token)} is invalid.`);
      const now = request.at;
      if (options.perSecondLimit !== undefined && served.filter((at) => now - at < 1_000).length >= options.perSecondLimit) {
        return error(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.', rateHeaders(now));
      }
      const { q, count = '20', offset = '0', freshness } = request.query;
      const size = Number(count);
      const page = Number(offset);
      if (!q || !Number.isInteger(size) || size < 1 || size > 20 || !Number.isInteger(page) || page < 0 || page > 9) {
        return error(422, 'VALIDATION', 'Unable to validate request parameter(s).');
      }
      served.push(now);
      const parsed = parseQueryText(q);
      const range = /^(\d{4}-\d{2}-\d{2})to(\d{4}-\d{2}-\d{2})$/.exec(freshness ?? '');
      const results = generateResults(
        {
          terms: parsed.terms,
          sites: parsed.sites,
          from: range?.[1] ?? parsed.after,
          to: range?.[2] ?? parsed.before,
          total: totalResults,
          duplicates,
        },
        page * size,
        size,
      );
      return {
        status: 200,
        headers: rateHeaders(now),
        body: {
          type: 'search',
          query: { original: q, more_results_available: (page + 1) * size < totalResults && page < 9 },
          mixed: { type: 'mixed', main: results.map((_, index) => ({ type: 'web', index, all: false })) },
          web: { type: 'search', family_friendly: true, results: results.map(resultOf) },
        },
      };
    },
    presets: {
      'rate-limit': () => error(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.', rateHeaders(Date.now())),
      'credit-exhausted': () => error(402, 'CREDIT_EXHAUSTED', 'Your plan has run out of credits.'),
      'invalid-token': () => error(422, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.'),
      'server-error': () => error(500, 'INTERNAL_ERROR', 'Something went wrong.'),
      slow: () => ({ slowMs: 1_500 }),
      malformed: () => ({ malformed: true }),
      'wrong-shape': () => ({ status: 200, body: { type: 'search', web: { results: [{ title: 'no url' }] } } }),
      disconnect: () => ({ disconnect: true }),
    },
  });

  return Object.assign(fake, {
    apiKey,
    setResults(change: { totalResults?: number; duplicates?: boolean }) {
      totalResults = change.totalResults ?? totalResults;
      duplicates = change.duplicates ?? duplicates;
    },
  });
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A Brave result: `page_age` on half the dated ones, a written-out `age` on the rest, "N days ago" when undated. */
function resultOf(result: GeneratedResult) {
  const [year, month, day] = (result.day ?? '').split('-').map(Number);
  const written = result.day ? `${MONTHS[month! - 1]} ${day}, ${year}` : `${(result.position % 9) + 1} days ago`;
  return {
    type: 'search_result',
    title: result.title.replace(/&/g, '&amp;'),
    url: result.url,
    is_source_local: false,
    description: result.snippet.replace(/&/g, '&amp;').replace(/^(Report \d+)/, '<strong>$1</strong>'),
    age: written,
    ...(result.day && result.position % 2 === 0 ? { page_age: `${result.day}T14:22:41` } : {}),
    meta_url: { scheme: 'https', netloc: result.host, hostname: result.host, path: new URL(result.url).pathname },
    language: 'en',
  };
}
