import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import * as z from 'zod';
import { hitOf, publicationDay } from './hits';
import { isTransientStatus, safeToken } from './http';
import { searchTimeoutsOf } from './policy';
import { SearchProviderError, type SearchHit, type SearchPage, type SearchProvider, type SearchQuery } from './port';

/** Options of the Perplexity Sonar adapter (`PERPLEXITY_*` in PROVIDERS.md). */
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
/** The written answer is not used, only its sources: keep it short and cheap. */
const ANSWER_TOKENS = 256;

/** Sonar's request: the chat completion plus its search filters. */
type SonarRequest = ChatCompletionCreateParamsNonStreaming & {
  search_domain_filter?: string[];
  search_after_date_filter?: string;
  search_before_date_filter?: string;
};

const answerSchema = z.looseObject({
  choices: z.array(z.unknown()),
  search_results: z
    .array(z.looseObject({ title: z.string().nullish(), url: z.string(), date: z.string().nullish(), snippet: z.string().nullish() }))
    .nullish(),
  citations: z.array(z.string()).nullish(),
});

/**
 * SearchProvider over Perplexity Sonar, the AI fallback: one chat
 * completion (official openai library, no retries of its own) asking for
 * sources on the query's terms, with the domain and date filters Sonar
 * supports; the hits are its `search_results` (or, from older answers, its
 * `citations`).
 */
export function createPerplexitySearch(options: PerplexitySearchOptions): SearchProvider {
  const timeoutMs = options.timeoutMs ?? searchTimeoutsOf(PERPLEXITY).requestTimeoutMs;
  const client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseUrl ?? defaultBaseUrl, maxRetries: 0, timeout: timeoutMs });
  const model = options.model ?? defaultModel;

  return {
    name: PERPLEXITY,
    async search(query: SearchQuery): Promise<SearchPage> {
      let completion: unknown;
      try {
        completion = await client.chat.completions.create(sonarRequest(model, query), { signal: AbortSignal.timeout(timeoutMs + 1_000) });
      } catch (error) {
        throw failure(error, timeoutMs);
      }
      const parsed = answerSchema.safeParse(completion);
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
      { role: 'system', content: 'Find current web sources for the search below. Answer in two sentences; the sources matter, not the answer.' },
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

function failure(error: unknown, timeoutMs: number): SearchProviderError {
  if (error instanceof APIConnectionTimeoutError) {
    return new SearchProviderError(PERPLEXITY, 'transient', `Perplexity did not answer within ${timeoutMs} ms`, 1);
  }
  if (error instanceof APIUserAbortError) return new SearchProviderError(PERPLEXITY, 'transient', 'Perplexity search ran past its deadline', 1);
  if (error instanceof APIConnectionError) return new SearchProviderError(PERPLEXITY, 'transient', 'Perplexity could not be reached', 0);
  if (error instanceof APIError && error.status !== undefined) {
    const code = safeToken(error.code) ?? safeToken(error.type);
    const message = `Perplexity answered ${error.status}${code ? ` ${code}` : ''}`;
    if (error.status === 402 || code === 'insufficient_quota') return new SearchProviderError(PERPLEXITY, 'quota', message, 1, error.status);
    return new SearchProviderError(PERPLEXITY, isTransientStatus(error.status) ? 'transient' : 'rejected', message, 1, error.status);
  }
  if (error instanceof SyntaxError) return new SearchProviderError(PERPLEXITY, 'malformed', 'Perplexity sent a body that is not JSON', 1);
  const name = error instanceof Error ? error.name : typeof error;
  return new SearchProviderError(PERPLEXITY, 'transient', `Perplexity search failed (${name})`, 1);
}
