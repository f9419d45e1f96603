import { cleanText, cutText } from '../../platform/text';
import { CrmCredentialsError, CrmError, CrmRateLimitedError, CrmRejectedError, CrmUnavailableError } from './errors';
import type { CrmPolicy } from './policy';
import type { RateWindow, Sleep } from './rate-window';

/** What every call of one client shares: its policy, its rate window, and the secrets no message may repeat. */
export interface HubSpotCallContext {
  policy: CrmPolicy;
  sleep: Sleep;
  limiter: RateWindow;
  /** Values cut out of any message kept from HubSpot's answers (the token). */
  secrets: readonly string[];
}

/** Longest part of HubSpot's own message an error keeps. */
const MAX_REASON_LENGTH = 300;

/** A failure as the client library throws it: `ApiException` (status in `code`), or the token check's own. */
interface HttpFailure {
  code: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Set by the token check: the path refused the token itself. */
  refusedToken?: boolean;
}

class Timeout extends Error {}

function isHttpFailure(error: unknown): error is HttpFailure {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number';
}

/**
 * Runs one HubSpot request under the policy: a turn of the rate window
 * first, the request bounded by its timeout; a 429 waited out when its
 * `Retry-After` is short enough (then thrown as `CrmRateLimitedError`);
 * a 5xx, timeout or dropped connection tried again when `safe` (reads,
 * and writes that are safe to repeat). Every failure leaves as one of the
 * port's errors (errors.ts), its message cleaned of the token.
 */
export async function hubspotCall<T>(context: HubSpotCallContext, safe: boolean, run: () => Promise<T>): Promise<T> {
  const { policy, sleep, limiter } = context;
  let rateLimitRetries = 0;
  let transientRetries = 0;
  for (;;) {
    await limiter.acquire();
    let failure: CrmError;
    try {
      return await withTimeout(run(), policy.requestTimeoutMs);
    } catch (error) {
      failure = crmErrorOf(error, context);
    }
    if (failure instanceof CrmRateLimitedError) {
      const waitMs = failure.retryAfterSeconds * 1000;
      if (rateLimitRetries >= policy.rateLimitRetries || waitMs > policy.maxRetryWaitMs) throw failure;
      rateLimitRetries += 1;
      await sleep(waitMs);
      continue;
    }
    if (failure instanceof CrmUnavailableError && safe && transientRetries < policy.transientRetries) {
      transientRetries += 1;
      await sleep(policy.transientRetryDelayMs);
      continue;
    }
    throw failure;
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), ms);
  });
  // A request cut by the deadline still settles later; its outcome is not wanted.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The port's error for whatever a request threw. */
export function crmErrorOf(error: unknown, context: Pick<HubSpotCallContext, 'policy' | 'secrets'>): CrmError {
  if (error instanceof CrmError) return error;
  if (error instanceof Timeout) return new CrmUnavailableError(`no answer within ${context.policy.requestTimeoutMs / 1000} s`);
  if (!isHttpFailure(error)) {
    // fetch's "fetch failed" (refused, reset, DNS), or an answer the library could not read.
    const reason = error instanceof TypeError ? 'the connection failed' : 'the answer could not be read';
    return new CrmUnavailableError(reason);
  }
  const status = error.code;
  const reason = reasonOf(error.body, status, context.secrets);
  if (error.refusedToken || status === 401) return new CrmCredentialsError(reason, error.refusedToken ? undefined : status);
  if (status === 403) return new CrmCredentialsError(reason, status);
  if (status === 429) return new CrmRateLimitedError(retryAfterSeconds(error.headers, context.policy.defaultRetryWaitMs));
  if (status >= 500 || status < 200) return new CrmUnavailableError(`HubSpot answered ${status}`, status);
  return new CrmRejectedError(reason, status);
}

/** HubSpot's own message (`{status: "error", message, category, …}`), cleaned, cut, and without any secret. */
function reasonOf(body: unknown, status: number, secrets: readonly string[]): string {
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  let reason = typeof message === 'string' && message.trim() !== '' ? message : `HubSpot answered ${status}`;
  for (const secret of secrets) if (secret) reason = reason.split(secret).join('[token]');
  return cutText(cleanText(reason).replace(/\s+/g, ' ').trim(), MAX_REASON_LENGTH);
}

/** `Retry-After` in whole seconds (a number of seconds or an HTTP date), else the policy's default. */
function retryAfterSeconds(headers: Record<string, string> | undefined, defaultMs: number): number {
  const raw = Object.entries(headers ?? {})
    .find(([name]) => name.toLowerCase() === 'retry-after')?.[1]
    ?.trim();
  if (raw) {
    if (/^\d+(\.\d+)?$/.test(raw)) return Math.max(0, Math.ceil(Number(raw)));
    const at = Date.parse(raw);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - Date.now()) / 1000));
  }
  return Math.ceil(defaultMs / 1000);
}
