/**
 * What a search provider is asked: the query already built by the deep
 * research feature (shared/deep-research/query.ts), plus the structured
 * filters each provider maps to its native parameters.
 */
export interface SearchQuery {
  /** The full query text as sent to providers that take operators: terms, keywords, `site:` alternatives, `after:`/`before:`. */
  text: string;
  /** The same search without operators: terms and keywords only (for providers that take no operators: Perplexity, the local corpus). */
  terms: string;
  /** Keywords the results should carry (already part of `text` and `terms`). */
  keywords: readonly string[];
  /** Domains the results must come from (hostnames, no scheme); empty: any. */
  sources: readonly string[];
  /** First day of the results' publication, YYYY-MM-DD (inclusive). */
  dateFrom?: string;
  /** Last day of the results' publication, YYYY-MM-DD (inclusive). */
  dateTo?: string;
  /** Results wanted, 1–100. A provider may return fewer; it never needs to return more. */
  maxResults: number;
}

/** One result as a provider returns it, before de-duplication and date filtering. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  /** YYYY-MM-DD when the provider knows it; absent otherwise. */
  publishedDate?: string;
}

/** A provider's answer and what it cost. */
export interface SearchPage {
  hits: SearchHit[];
  /** Provider requests spent (a Google page of 10 is one). */
  requests: number;
}

/**
 * Port: one web search provider (Google, Brave, Perplexity, the local
 * corpus, ...). Adapters map the query to their native parameters, bound
 * each request by their own timeout and report failures as
 * SearchProviderError; retrying and falling over to the next provider is
 * the chain's job (shared/providers/search/chain.ts), never the adapter's.
 */
export interface SearchProvider {
  /** Stable name recorded on the command (`provider`): `google`, `brave`, `perplexity`, `local-corpus`. */
  readonly name: string;
  search(query: SearchQuery): Promise<SearchPage>;
}

/**
 * Why a provider could not serve:
 * - `quota`: out of quota (daily counter, 429 quota answers): skip it, no retry.
 * - `transient`: timeout, 5xx, 429 rate limit, connection error: one retry, then the next provider.
 * - `malformed`: an answer that is not the documented JSON: the next provider.
 * - `rejected`: auth or request refused (401, 402, 403, 422, other 4xx): the next provider, no retry.
 */
export type SearchFailureKind = 'quota' | 'transient' | 'malformed' | 'rejected';

/** A provider's failure. The message never carries a key or a URL with a key. */
export class SearchProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: SearchFailureKind,
    message: string,
    /** Provider requests spent before failing. */
    readonly requests: number = 0,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SearchProviderError';
  }
}
