import { SearchProviderError } from './port';

/** The `fetch` an adapter sends its requests with (tests may wrap it). */
export type Fetch = typeof fetch;

/** One HTTP answer of a provider, its body parsed as JSON when it is JSON. */
export interface ProviderAnswer {
  status: number;
  headers: Headers;
  /** The parsed body; undefined when the body is empty or not JSON. */
  json: unknown;
}

/** How one request is made and bounded. */
export interface ProviderRequest {
  /** Provider name, for the errors (`google`). */
  provider: string;
  /** Provider as people write it, for messages (`Google`). */
  label: string;
  fetch: Fetch;
  /** Longest wait for this request, headers and body. */
  requestTimeoutMs: number;
  /** The whole search attempt's deadline. */
  deadline: AbortSignal;
  /** Requests already spent by this attempt, carried on any error thrown. */
  spent: number;
}

/**
 * Sends one request and reads its whole body within the request's timeout
 * and the attempt's deadline. A timeout or a connection failure becomes a
 * `transient` SearchProviderError; a 2xx answer whose body is not JSON a
 * `malformed` one. Other statuses are returned for the adapter to map. The
 * URL (it may hold a key) reaches only `fetch`: no error thrown here
 * carries it, a cause, or a text the provider sent.
 */
export async function requestJson(request: ProviderRequest, url: URL, init: RequestInit = {}): Promise<ProviderAnswer> {
  const timeout = AbortSignal.timeout(request.requestTimeoutMs);
  const signal = AbortSignal.any([timeout, request.deadline]);
  let response: Response;
  let text: string;
  try {
    response = await request.fetch(url, { ...init, signal, redirect: 'error' });
    text = await response.text();
  } catch {
    const reached = request.spent + (timeout.aborted || request.deadline.aborted ? 1 : 0);
    if (request.deadline.aborted) {
      throw new SearchProviderError(request.provider, 'transient', `${request.label} search ran past its deadline`, reached);
    }
    if (timeout.aborted) {
      throw new SearchProviderError(
        request.provider,
        'transient',
        `${request.label} did not answer within ${request.requestTimeoutMs} ms`,
        reached,
      );
    }
    throw new SearchProviderError(request.provider, 'transient', `${request.label} could not be reached`, reached);
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (response.ok && json === undefined) {
    throw new SearchProviderError(
      request.provider,
      'malformed',
      `${request.label} sent a body that is not JSON (status ${response.status})`,
      request.spent + 1,
      response.status,
    );
  }
  return { status: response.status, headers: response.headers, json };
}

const SAFE_TOKEN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * A provider's error code or status word fit for a message: identifier-like
 * tokens only (`RESOURCE_EXHAUSTED`, `rateLimitExceeded`), never free text,
 * which could echo a key or a URL back.
 */
export function safeToken(value: unknown): string | undefined {
  return typeof value === 'string' && SAFE_TOKEN.test(value) ? value : undefined;
}

/** Whether a status is worth one retry: 408, 425, 429 (rate limit, unless the adapter says quota) and 5xx. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}
