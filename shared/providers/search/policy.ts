/**
 * Timeout, retry and fallback policy of every web search, written once
 * (the chain and the adapters read it from here; nothing else sets one).
 *
 * Why these numbers:
 * - Google and Brave answer a page in well under a second; 8 s per request
 *   only cuts a provider that has stopped answering. A whole search of
 *   theirs may page (Google 10 results a page, up to 10 pages; Brave 20, up
 *   to 5), so one attempt is also bounded as a whole, by 20 s.
 * - Perplexity Sonar searches and writes before it answers, and a first use
 *   can take 10–30 s: 30 s for its one request.
 * - A transient failure (timeout, 5xx, 429 rate limit, connection) gets one
 *   retry, after 1 s: the shortest window of the providers' per-second
 *   rate limits (Brave's free plan allows 1 request a second), so the retry
 *   is not refused for the same reason. A second transient failure, and any
 *   quota, malformed or rejected answer, passes the search to the next
 *   provider of the chain without a retry: quota and refusals do not heal
 *   within seconds, and a provider that sent garbage once is not trusted again.
 * Worst case (every provider timing out on both attempts): see
 * `searchChainWorstCaseMs`, which the research worker's timeout covers.
 */
export interface SearchTimeouts {
  /** Longest wait for one HTTP request, headers and body. */
  requestTimeoutMs: number;
  /** Longest wait for one attempt of a search, all its pages together. */
  deadlineMs: number;
}

/** Per provider; a provider not named here (the local corpus, a new one) gets `default`. */
export const SEARCH_TIMEOUTS = Object.freeze({
  google: Object.freeze({ requestTimeoutMs: 8_000, deadlineMs: 20_000 }),
  brave: Object.freeze({ requestTimeoutMs: 8_000, deadlineMs: 20_000 }),
  perplexity: Object.freeze({ requestTimeoutMs: 30_000, deadlineMs: 30_000 }),
  default: Object.freeze({ requestTimeoutMs: 8_000, deadlineMs: 20_000 }),
} satisfies Record<string, SearchTimeouts>);

/** How the chain retries (shared/providers/search/chain.ts). */
export const SEARCH_RETRY = Object.freeze({
  /** Retries after a transient failure, per provider and search. */
  transientRetries: 1,
  /** Wait before that retry. */
  retryDelayMs: 1_000,
});

/** The timeouts of a provider by name. */
export function searchTimeoutsOf(provider: string): SearchTimeouts {
  return provider in SEARCH_TIMEOUTS ? SEARCH_TIMEOUTS[provider as keyof typeof SEARCH_TIMEOUTS] : SEARCH_TIMEOUTS.default;
}

/**
 * Longest a chain of these providers can take before it gives up: every
 * provider's every attempt running to its deadline, plus the waits before
 * retries (140 s + 3 s for google, brave, perplexity).
 */
export function searchChainWorstCaseMs(providers: readonly string[]): number {
  const attempts = SEARCH_RETRY.transientRetries + 1;
  return providers.reduce(
    (total, name) => total + attempts * searchTimeoutsOf(name).deadlineMs + SEARCH_RETRY.transientRetries * SEARCH_RETRY.retryDelayMs,
    0,
  );
}
