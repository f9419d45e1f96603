/**
 * Rate, timeout and retry policy of every CRM call, written once (the
 * adapters read it from here; nothing else sets one).
 *
 * Why these numbers:
 * - HubSpot lets a private app make 100 requests per rolling 10 s (and more
 *   a day than any import here needs). Several jobs of one tenant may run at
 *   once (an import and the write-backs), each with its own client, so one
 *   client keeps to half of it: 50 per 10 s. A 429 is the arbiter when they
 *   still meet.
 * - A 429 carries `Retry-After` (seconds); a wait of up to 10 s (the
 *   window) is waited out here, at most twice per call. A longer one, or a
 *   third 429, is thrown (`CrmRateLimitedError`) for the job to come back later.
 * - HubSpot answers in well under a second; 8 s per request only cuts one
 *   that stopped answering. A 5xx, a timeout or a dropped connection is
 *   tried once more after 1 s, for reads and for writes that are safe to
 *   repeat (setting a property); never for a create, which could record
 *   the engagement twice.
 * Worst case of one call with the defaults (`crmCallWorstCaseMs`): 4 attempts
 * of 8 s, two waits of 10 s and one of 1 s: 53 s, inside a worker's minute.
 * The API route that checks a token uses `CONNECT_POLICY`, to answer within
 * a few seconds: 2 attempts of 3 s and a wait of 0.5 s (6.5 s); a 429 is
 * answered at once (RATE_LIMITED with HubSpot's `Retry-After`) rather than waited out.
 */
export interface CrmPolicy {
  /** Requests one client may start per window. @default 50 */
  requestsPerWindow: number;
  /** The rate window, in milliseconds. @default 10_000 */
  windowMs: number;
  /** Longest wait for one request's answer. @default 8_000 */
  requestTimeoutMs: number;
  /** 429 answers waited out per call before giving up. @default 2 */
  rateLimitRetries: number;
  /** Longest `Retry-After` waited out here; a longer one is thrown. @default 10_000 */
  maxRetryWaitMs: number;
  /** Wait assumed when a 429 names none. @default 10_000 */
  defaultRetryWaitMs: number;
  /** Retries of a safe request after a 5xx, a timeout or a dropped connection. @default 1 */
  transientRetries: number;
  /** Wait before that retry. @default 1_000 */
  transientRetryDelayMs: number;
}

export const DEFAULT_CRM_POLICY: Readonly<CrmPolicy> = Object.freeze({
  requestsPerWindow: 50,
  windowMs: 10_000,
  requestTimeoutMs: 8_000,
  rateLimitRetries: 2,
  maxRetryWaitMs: 10_000,
  defaultRetryWaitMs: 10_000,
  transientRetries: 1,
  transientRetryDelayMs: 1_000,
});

/** The policy of `PUT /api/integrations/hubspot`'s token check: an answer within the route's timeout. */
export const CONNECT_POLICY: Readonly<Partial<CrmPolicy>> = Object.freeze({
  requestTimeoutMs: 3_000,
  rateLimitRetries: 0,
  transientRetries: 1,
  transientRetryDelayMs: 500,
});

/** The default policy with a caller's overrides applied. */
export function resolveCrmPolicy(overrides: Partial<CrmPolicy> = {}): CrmPolicy {
  return { ...DEFAULT_CRM_POLICY, ...overrides };
}

/** Longest one call can take under a policy: every attempt running to its timeout, and every wait at its longest. */
export function crmCallWorstCaseMs(policy: CrmPolicy): number {
  const attempts = 1 + policy.rateLimitRetries + policy.transientRetries;
  return (
    attempts * policy.requestTimeoutMs +
    policy.rateLimitRetries * policy.maxRetryWaitMs +
    policy.transientRetries * policy.transientRetryDelayMs
  );
}
