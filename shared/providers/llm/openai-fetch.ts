import type { ClientOptions } from 'openai';

/** The `fetch` the openai library calls for every attempt. */
export type OpenAiFetch = NonNullable<ClientOptions['fetch']>;

/** One call's view of its attempts, filled in by the guarded fetch. */
export interface AttemptLog {
  attempts: number;
  /** Whether the last attempt was cut by its timeout (not by a refused or dropped connection). */
  lastTimedOut: boolean;
}

/**
 * Wraps `fetch` so the openai library, which does the retrying, skips retries
 * that cannot help: a 429 for `insufficient_quota` (only billing fixes it)
 * and any answer whose `retry-after` asks for a longer wait than
 * `maxRetryWaitMs`. Both get `x-should-retry: false`, which the library obeys;
 * status and body stay as they were. Also counts the call's attempts and
 * notes whether the last one timed out.
 */
export function guardedFetch(maxRetryWaitMs: number, log: AttemptLog, base: OpenAiFetch = fetch): OpenAiFetch {
  return async (input, init) => {
    log.attempts += 1;
    log.lastTimedOut = false;
    const response = await base(input, init).catch((error: unknown) => {
      log.lastTimedOut = init?.signal?.aborted === true;
      throw error;
    });
    if (response.ok) return response;
    if (retryWaitMs(response.headers) > maxRetryWaitMs) return withoutRetry(response);
    if (response.status !== 429) return response;
    const body = await response.text();
    return rebuilt(response, body, isInsufficientQuota(body) ? { 'x-should-retry': 'false' } : {});
  };
}

function retryWaitMs(headers: Headers): number {
  const millis = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (!Number.isNaN(millis)) return millis;
  const header = headers.get('retry-after');
  if (header === null) return 0;
  const seconds = Number.parseFloat(header);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? 0 : date - Date.now();
}

function isInsufficientQuota(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; type?: unknown } };
    return parsed.error?.code === 'insufficient_quota' || parsed.error?.type === 'insufficient_quota';
  } catch {
    return false;
  }
}

async function withoutRetry(response: Response): Promise<Response> {
  return rebuilt(response, await response.text(), { 'x-should-retry': 'false' });
}

function rebuilt(response: Response, body: string, extraHeaders: Readonly<Record<string, string>>): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
