import { startLoopbackFake, type FakeAnswer, type LoopbackFake, type RecordedRequest } from './loopback';
import { generateResults, parseQueryText, type GeneratedResult } from './search-results';

/** Google's usual failures, as its Custom Search JSON API answers them. */
export type GoogleFailure =
  /** 429 RESOURCE_EXHAUSTED / rateLimitExceeded: the daily quota is used up. */
  | 'quota'
  /** 403 dailyLimitExceeded: the older daily quota answer. */
  | 'daily-limit'
  /** 429 with no Google error body (a front end's rate limit): not the quota. */
  | 'rate-limit'
  | 'server-error'
  | 'unavailable'
  /** 400 INVALID_ARGUMENT / keyInvalid. */
  | 'invalid-key'
  /** 403 PERMISSION_DENIED: the project may not use the API. */
  | 'forbidden'
  /** A normal answer, 1.5 s late. */
  | 'slow'
  /** 200 with a body that is not JSON. */
  | 'malformed'
  /** 200 JSON of the wrong shape. */
  | 'wrong-shape'
  | 'disconnect';

export interface GoogleFakeOptions {
  /** The key it accepts. @default 'AIza-fake-google-key' */
  apiKey?: string;
  /** The engine id it accepts. @default 'fake-engine-id' */
  engineId?: string;
  /** Results that exist for any query. @default 100 */
  totalResults?: number;
  /** Every fifth result repeats an earlier URL in a www./trailing-slash variant. @default false */
  duplicates?: boolean;
}

/** Loopback stand-in for the Google Custom Search JSON API (`GET {base}/customsearch/v1`). */
export interface GoogleFake extends LoopbackFake<GoogleFailure> {
  readonly apiKey: string;
  readonly engineId: string;
  /** Changes how many results exist and whether some repeat. */
  setResults(options: { totalResults?: number; duplicates?: boolean }): void;
}

/**
 * Starts the fake on 127.0.0.1. It checks `key`, `cx`, `num` (1–10) and
 * `start + num ≤ 100` as Google does, honours `sort=date:r:` and `site:`,
 * and answers in Google's format, dates in varied metatags. Its error
 * messages echo the request URL, key included, so tests can prove the
 * adapter never passes a provider's text on.
 */
export async function startFakeGoogle(options: GoogleFakeOptions = {}): Promise<GoogleFake> {
  const apiKey = options.apiKey ?? 'AIza-fake-google-key';
  const engineId = options.engineId ?? 'fake-engine-id';
  let totalResults = options.totalResults ?? 100;
  let duplicates = options.duplicates ?? false;

  const error = (request: RecordedRequest, code: number, status: string, reason: string, message: string): FakeAnswer => ({
    status: code,
    body: { error: { code, message: `${message} (request ${echo(request)})`, errors: [{ message, domain: 'global', reason }], status } },
  });

  const fake = await startLoopbackFake<GoogleFailure>({
    method: 'GET',
    endpoint: '/customsearch/v1',
    answer(request) {
      const { key, cx, q, num = '10', start = '1', sort } = request.query;
      if (key !== apiKey) return error(request, 400, 'INVALID_ARGUMENT', 'badRequest', 'API key not valid. Please pass a valid API key.');
      if (cx !== engineId || !q) return error(request, 400, 'INVALID_ARGUMENT', 'invalid', 'Request contains an invalid argument.');
      const count = Number(num);
      const first = Number(start);
      if (!Number.isInteger(count) || count < 1 || count > 10 || !Number.isInteger(first) || first < 1 || first + count > 100) {
        return error(request, 400, 'INVALID_ARGUMENT', 'invalid', 'Request contains an invalid argument.');
      }
      const parsed = parseQueryText(q);
      const range = /^date:r:(\d{8})?:(\d{8})?$/.exec(sort ?? '');
      const results = generateResults(
        {
          terms: parsed.terms,
          sites: parsed.sites,
          from: dashed(range?.[1]) ?? parsed.after,
          to: dashed(range?.[2]) ?? parsed.before,
          total: totalResults,
          duplicates,
        },
        first - 1,
        count,
      );
      return {
        status: 200,
        body: {
          kind: 'customsearch#search',
          queries: {
            request: [{ searchTerms: q, count, startIndex: first }],
            ...(first - 1 + count < Math.min(totalResults, 100)
              ? { nextPage: [{ searchTerms: q, count, startIndex: first + count }] }
              : {}),
          },
          searchInformation: { searchTime: 0.21, totalResults: String(totalResults) },
          ...(results.length > 0 ? { items: results.map(itemOf) } : {}),
        },
      };
    },
    presets: {
      quota: (request) =>
        error(
          request,
          429,
          'RESOURCE_EXHAUSTED',
          'rateLimitExceeded',
          "Quota exceeded for quota metric 'Queries' and limit 'Queries per day'.",
        ),
      'daily-limit': (request) => error(request, 403, 'PERMISSION_DENIED', 'dailyLimitExceeded', 'Daily Limit Exceeded.'),
      'rate-limit': () => ({ status: 429, body: 'Too Many Requests', headers: { 'content-type': 'text/plain' } }),
      'server-error': (request) => error(request, 500, 'INTERNAL', 'backendError', 'Backend Error'),
      unavailable: (request) => error(request, 503, 'UNAVAILABLE', 'backendError', 'The service is currently unavailable.'),
      'invalid-key': (request) => error(request, 400, 'INVALID_ARGUMENT', 'badRequest', 'API key not valid. Please pass a valid API key.'),
      forbidden: (request) =>
        error(request, 403, 'PERMISSION_DENIED', 'forbidden', 'This project does not have the access to Custom Search JSON API.'),
      slow: () => ({ slowMs: 1_500 }),
      malformed: () => ({ malformed: true }),
      'wrong-shape': () => ({ status: 200, body: { items: 'not a list' } }),
      disconnect: () => ({ disconnect: true }),
    },
  });

  return Object.assign(fake, {
    apiKey,
    engineId,
    setResults(change: { totalResults?: number; duplicates?: boolean }) {
      totalResults = change.totalResults ?? totalResults;
      duplicates = change.duplicates ?? duplicates;
    },
  });
}

/** The request as Google would see it, key included. */
function echo(request: RecordedRequest): string {
  return `${request.path}?${new URLSearchParams(request.query).toString()}`;
}

function dashed(compact: string | undefined): string | undefined {
  return compact ? `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}` : undefined;
}

/** A Google item, the date (when known) in one of the metatags pages use. */
function itemOf(result: GeneratedResult) {
  const metatags: Record<string, string> = { 'og:title': result.title };
  if (result.day !== undefined) {
    const style = result.position % 4;
    if (style === 0) metatags['article:published_time'] = `${result.day}T08:30:00+00:00`;
    else if (style === 1) metatags['og:updated_time'] = `${result.day}T23:15:00Z`;
    else if (style === 2) metatags.date = result.day;
    else metatags['article:published_time'] = result.day;
  }
  return {
    kind: 'customsearch#result',
    title: result.title,
    htmlTitle: result.title.replace(/(report)/i, '<b>$1</b>'),
    link: result.url,
    displayLink: result.host,
    snippet: result.snippet,
    htmlSnippet: result.snippet,
    formattedUrl: result.url,
    ...(result.day === undefined && result.position % 2 === 0 ? {} : { pagemap: { metatags: [metatags] } }),
  };
}
