import { SEARCH_RETRY, SEARCH_TIMEOUTS, searchChainWorstCaseMs, searchTimeoutsOf } from '../../../shared/providers/search/policy';

describe('search policy', () => {
  it('gives Perplexity the longer timeout it needs, and the page APIs a short one', () => {
    expect(searchTimeoutsOf('perplexity').requestTimeoutMs).toBe(30_000);
    expect(searchTimeoutsOf('google').requestTimeoutMs).toBe(8_000);
    expect(searchTimeoutsOf('brave').requestTimeoutMs).toBe(8_000);
    expect(searchTimeoutsOf('local-corpus')).toBe(SEARCH_TIMEOUTS.default);
  });

  it('retries a transient failure once', () => {
    expect(SEARCH_RETRY.transientRetries).toBe(1);
  });

  it('bounds the default chain: two attempts of each provider to its deadline plus the waits before retries', () => {
    expect(searchChainWorstCaseMs(['google', 'brave', 'perplexity'])).toBe(2 * 20_000 + 2 * 20_000 + 2 * 30_000 + 3 * 1_000);
    expect(searchChainWorstCaseMs([])).toBe(0);
  });
});
