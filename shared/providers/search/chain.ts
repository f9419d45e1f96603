import { sleepOn, systemClock } from '../../platform/clock';
import { SEARCH_RETRY } from './policy';
import { SearchProviderError, type SearchHit, type SearchProvider, type SearchQuery } from './port';
import { recordUsage } from '../../usage/meter';
import { searchRequests } from '../../usage/usage';

/** Why one provider of the chain was passed over. */
export interface ProviderFailure {
  provider: string;
  /** What went wrong, for the command's record and the logs: kind, status, attempts; never a key or a URL. */
  reason: string;
}

/** What the chain found, who served it, and what it cost. */
export interface ChainResult {
  /** The provider that served (`google`, `brave`, ...). */
  provider: string;
  hits: SearchHit[];
  /** Provider requests spent, summed over every provider and attempt. */
  providerRequests: number;
  /** The providers tried before the one that served, and why each was passed over. */
  passedOver: ProviderFailure[];
}

/** Every provider of the chain failed (or none is configured). Its message lists each provider's reason. */
export class SearchFailedError extends Error {
  constructor(
    readonly failures: ProviderFailure[],
    /** Provider requests spent before giving up. */
    readonly providerRequests: number,
  ) {
    super(
      failures.length === 0
        ? 'No search provider is configured'
        : `Every search provider failed: ${failures.map((failure) => `${failure.provider}: ${failure.reason}`).join('; ')}`,
    );
    this.name = 'SearchFailedError';
  }
}

/** How the chain waits before a retry; tests shorten it. */
export interface ChainOptions {
  /** @default SEARCH_RETRY.retryDelayMs (policy.ts) */
  retryDelayMs?: number;
  /** How a wait of `ms` is waited: the worker's clock's (shared/platform/clock.ts `sleepOn`). @default a timer */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Asks each provider in order until one serves (policy.ts says why):
 * a `quota`, `malformed` or `rejected` failure passes to the next provider
 * at once; a `transient` one (timeout, 5xx, 429 rate limit, connection) is
 * retried once after a short wait, then passed over. An error that is not a
 * SearchProviderError is a fault of ours, not the provider's, and is thrown
 * as it is. All failing → SearchFailedError with each provider's reason.
 */
export async function searchThroughChain(
  providers: readonly SearchProvider[],
  query: SearchQuery,
  options: ChainOptions = {},
): Promise<ChainResult> {
  const retryDelayMs = options.retryDelayMs ?? SEARCH_RETRY.retryDelayMs;
  const sleep = options.sleep ?? ((ms: number) => sleepOn(systemClock, ms));
  const passedOver: ProviderFailure[] = [];
  let providerRequests = 0;
  for (const provider of providers) {
    const failures: SearchProviderError[] = [];
    for (let attempt = 0; attempt <= SEARCH_RETRY.transientRetries; attempt++) {
      if (attempt > 0) await sleep(retryDelayMs);
      try {
        const page = await provider.search(query);
        providerRequests += page.requests;
        recordUsage(searchRequests(provider.name, page.requests));
        return { provider: provider.name, hits: page.hits, providerRequests, passedOver };
      } catch (error) {
        if (!(error instanceof SearchProviderError)) throw error;
        providerRequests += error.requests;
        // A failed request may still have been paid for.
        if (error.requests > 0) recordUsage(searchRequests(provider.name, error.requests));
        failures.push(error);
        if (error.kind !== 'transient') break;
      }
    }
    passedOver.push({ provider: provider.name, reason: reasonOf(failures) });
  }
  throw new SearchFailedError(passedOver, providerRequests);
}

/** `transient: Google answered 500 backendError (2 attempts)`; each distinct message once. */
function reasonOf(failures: readonly SearchProviderError[]): string {
  const last = failures[failures.length - 1]!;
  const messages = [...new Set(failures.map((failure) => failure.message))].join(', then ');
  const attempts = failures.length > 1 ? ` (${failures.length} attempts)` : '';
  return `${last.kind}: ${messages}${attempts}`;
}
