import type { RateDecision, RequestRate } from './request-rate';

/** The policy's name in the RateLimit fields. */
export const REQUEST_POLICY = 'requests';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy: "requests";q=<burst>;w=<seconds to refill a burst>`
 * and `RateLimit: "requests";r=<remaining>;t=<seconds until full>`.
 */
export function rateLimitHeaders(rate: RequestRate, decision: RateDecision): Record<string, string> {
  const window = Math.max(1, Math.ceil(rate.burst / rate.perSecond));
  return {
    'RateLimit-Policy': `"${REQUEST_POLICY}";q=${rate.burst};w=${window}`,
    RateLimit: `"${REQUEST_POLICY}";r=${decision.remaining};t=${Math.ceil(decision.resetMs / 1000)}`,
  };
}
