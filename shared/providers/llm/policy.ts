/**
 * Retry and timeout policy of every LLM call, written once.
 *
 * Why these numbers: a command whose provider keeps failing must end failed
 * within 60 s. With the defaults a call makes at most 3 attempts of at most
 * 15 s each (45 s) plus at most two waits between them, each capped at 5 s,
 * so it gives up after 55 s (56 s hard deadline), with room left for the
 * command's own work. Retries happen in one layer only: inside the adapter.
 */
export interface LlmRetryPolicy {
  /**
   * Longest wait for one attempt's answer, in milliseconds.
   * @default 15_000
   */
  timeoutMs: number;
  /**
   * Retries after the first attempt, for transient errors only (connection,
   * timeout, 408, 409, 429 `rate_limit_exceeded`, 5xx).
   * @default 2
   */
  maxRetries: number;
  /**
   * Longest `retry-after` / `retry-after-ms` the provider may ask for. A
   * longer wait would break the 60 s budget, so the call fails at once instead.
   * @default 5_000
   */
  maxRetryWaitMs: number;
}

/** The policy used when a caller does not override it. */
const defaultLlmRetryPolicy: Readonly<LlmRetryPolicy> = Object.freeze({
  timeoutMs: 15_000,
  maxRetries: 2,
  maxRetryWaitMs: 5_000,
});

/** The default policy with a caller's overrides applied. */
export function resolveLlmRetryPolicy(overrides: Partial<LlmRetryPolicy> = {}): LlmRetryPolicy {
  return { ...defaultLlmRetryPolicy, ...overrides };
}

/** Slack on top of attempts and waits, so the per-attempt timeout always fires before the deadline. */
const deadlineGraceMs = 1_000;

/**
 * Hard deadline of one call, attempts and waits included (56 s with the
 * defaults). The per-attempt timeout only covers the wait for response
 * headers; this also bounds a body that stalls after them.
 */
export function llmCallDeadlineMs(policy: LlmRetryPolicy): number {
  const attempts = policy.maxRetries + 1;
  return attempts * policy.timeoutMs + policy.maxRetries * policy.maxRetryWaitMs + deadlineGraceMs;
}
