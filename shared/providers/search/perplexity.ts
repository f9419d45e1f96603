import type * as OpenAiModule from 'openai';
import type { ClientOptions, OpenAI } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import * as z from 'zod/mini';
import '../../platform/zod-messages';
import { hitOf, publicationDay } from './hits';
import { isTransientStatus, safeToken } from './http';
import { searchTimeoutsOf } from './policy';
import { SearchProviderError, type SearchHit, type SearchPage, type SearchProvider, type SearchQuery } from './port';
import { lazy } from '../../platform/memo';

/** Options of the Perplexity Sonar adapter (`PERPLEXITY_*` in docs/configuration.md). */
export interface PerplexitySearchOptions {
  apiKey: string;
  /**
   * Root of the OpenAI-compatible API, path prefix kept.
   * @default 'https://api.perplexity.ai'
   */
  baseUrl?: string;
  /** @default 'sonar' */
  model?: string;
  /** Longest wait for the answer. @default policy.ts, 30 s */
  timeoutMs?: number;
}

const PERPLEXITY = 'perplexity';
const defaultBaseUrl = 'https://api.perplexity.ai';
const defaultModel = 'sonar';
/** Most domains `search_domain_filter` takes. */
const MAX_DOMAIN_FILTER = 20;
/** The library's timeout only covers the wait for headers; this bounds a body that stalls after them. */
const DEADLINE_GRACE_MS = 1_000;
/** The written answer is not used, only its sources: keep it short and cheap. */
const ANSWER_TOKENS = 256;

type OpenAiLibrary = typeof OpenAiModule;

/** Sonar's request: the chat completion plus its search filters. */
type SonarRequest = ChatCompletionCreateParamsNonStreaming & {
  search_domain_filter?: string[];
  search_after_date_filter?: string;
  search_before_date_filter?: string;
};

// Perplexity's answers, their schemas built on first use: a search job usually asks one provider of the chain.
const answerSchema = lazy(() =>
  z.looseObject({
    choices: z.array(z.unknown()),
    search_results: z.nullish(
      z.array(
        z.looseObject({ title: z.nullish(z.string()), url: z.string(), date: z.nullish(z.string()), snippet: z.nullish(z.string()) }),
      ),
    ),
    citations: z.nullish(z.array(z.string())),
  }),
);

/**
 * SearchProvider over Perplexity Sonar, the AI fallback: one chat
 * completion (official openai library, no retries of its own) asking for
 * sources on the query's terms, with the domain and date filters Sonar
 * supports; the hits are its `search_results` (or, from older answers, its
 * `citations`).
 */
export function createPerplexitySearch(options: PerplexitySearchOptions): SearchProvider {
  const timeoutMs = options.timeoutMs ?? searchTimeoutsOf(PERPLEXITY).requestTimeoutMs;
  let client: OpenAI | undefined;
  const model = options.model ?? defaultModel;

  return {
    name: PERPLEXITY,
    async search(query: SearchQuery): Promise<SearchPage> {
      // Read by the first Perplexity search of an instance: most deployments have no Perplexity key and never load it.
      const library = await import('openai');
      client ??= new library.OpenAI({
        apiKey: options.apiKey,
        baseURL: options.baseUrl ?? defaultBaseUrl,
        maxRetries: 0,
        timeout: timeoutMs,
      });
      const attempt = { timedOut: false };
      const deadline = AbortSignal.timeout(timeoutMs + DEADLINE_GRACE_MS);
      let completion: unknown;
      try {
        completion = await client
          .withOptions({ fetch: watchedFetch(attempt) })
          .chat.completions.create(sonarRequest(model, query), { signal: deadline });
      } catch (error) {
        throw failure(library, error, timeoutMs, attempt.timedOut, deadline.aborted);
      }
      const parsed = answerSchema().safeParse(completion);
      if (!parsed.success) {
        const where = parsed.error.issues[0]?.path.join('.') || '(root)';
        throw new SearchProviderError(PERPLEXITY, 'malformed', `Perplexity sent an answer of the wrong shape (at ${where})`, 1);
      }
      const hits: SearchHit[] = parsed.data.search_results
        ? parsed.data.search_results.flatMap(
            (result) => hitOf({ title: result.title, url: result.url, snippet: result.snippet, date: publicationDay(result.date) }) ?? [],
          )
        : (parsed.data.citations ?? []).flatMap((url) => hitOf({ url }) ?? []);
      return { hits: hits.slice(0, query.maxResults), requests: 1 };
    },
  };
}

/** The request Sonar gets for a query. Exported for tests of the mapping. */
export function sonarRequest(model: string, query: SearchQuery): SonarRequest {
  const domains = [...new Set(query.sources.map((source) => source.trim().toLowerCase()).filter(Boolean))].slice(0, MAX_DOMAIN_FILTER);
  return {
    model,
    max_tokens: ANSWER_TOKENS,
    messages: [
      {
        role: 'system',
        content: 'Find current web sources for the search below. Answer in two sentences; the sources matter, not the answer.',
      },
      { role: 'user', content: query.terms },
    ],
    ...(domains.length > 0 ? { search_domain_filter: domains } : {}),
    ...(query.dateFrom === undefined ? {} : { search_after_date_filter: sonarDate(query.dateFrom) }),
    ...(query.dateTo === undefined ? {} : { search_before_date_filter: sonarDate(query.dateTo) }),
  };
}

/** YYYY-MM-DD as Sonar's filters want it: M/D/YYYY, no leading zeros. */
export function sonarDate(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return `${month}/${date}/${year}`;
}

type Fetch = NonNullable<ClientOptions['fetch']>;

/**
 * `fetch` that notes whether the request was cut by its abort signal (the
 * library's timeout): the library reports that as a timeout or as a
 * connection error depending on where the abort lands, and errors from
 * another realm fail its `instanceof` checks.
 */
function watchedFetch(attempt: { timedOut: boolean }): Fetch {
  return async (input, init) =>
    fetch(input, init).catch((error: unknown) => {
      attempt.timedOut = init?.signal?.aborted === true;
      throw error;
    });
}

/**
 * The SearchProviderError of a failed call. Error names are compared, not
 * classes, where the error may come from the runtime's own realm (`fetch`,
 * `JSON.parse` inside it).
 */
function failure(
  { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError }: OpenAiLibrary,
  error: unknown,
  timeoutMs: number,
  timedOut: boolean,
  pastDeadline: boolean,
): SearchProviderError {
  if (pastDeadline || error instanceof APIUserAbortError) {
    return new SearchProviderError(PERPLEXITY, 'transient', 'Perplexity search ran past its deadline', 1);
  }
  if (error instanceof APIConnectionTimeoutError || (error instanceof APIConnectionError && timedOut)) {
    return new SearchProviderError(PERPLEXITY, 'transient', `Perplexity did not answer within ${timeoutMs} ms`, 1);
  }
  if (error instanceof APIConnectionError) return new SearchProviderError(PERPLEXITY, 'transient', 'Perplexity could not be reached', 0);
  if (error instanceof APIError && error.status !== undefined) {
    const code = safeToken(error.code) ?? safeToken(error.type);
    const message = `Perplexity answered ${error.status}${code ? ` ${code}` : ''}`;
    if (error.status === 402 || code === 'insufficient_quota')
      return new SearchProviderError(PERPLEXITY, 'quota', message, 1, error.status);
    return new SearchProviderError(PERPLEXITY, isTransientStatus(error.status) ? 'transient' : 'rejected', message, 1, error.status);
  }
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : typeof error;
  if (name === 'SyntaxError') return new SearchProviderError(PERPLEXITY, 'malformed', 'Perplexity sent a body that is not JSON', 1);
  return new SearchProviderError(PERPLEXITY, 'transient', `Perplexity search failed (${safeToken(name) ?? 'error'})`, 1);
}
