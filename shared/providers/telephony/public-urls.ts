/** Where the ConversationRelay socket of this service listens, below PUBLIC_BASE_URL. */
const RELAY_PATH = '/relay';

/** The query parameter of a call's relay URL that carries its one-time token. */
export const RELAY_TOKEN_PARAMETER = 'token';

/**
 * The relay socket's URL for a public base URL: `wss://` for an `https://`
 * base, `ws://` for an `http://` one (the local runtime), the base's path
 * prefix kept (`https://host/prod` → `wss://host/prod/relay`). With a
 * token, the call's own URL: `…/relay?token=<token>`.
 */
export function relayUrlOf(publicBaseUrl: string, token?: string): string {
  const url = new URL(publicUrlOf(publicBaseUrl, RELAY_PATH));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (token !== undefined) url.searchParams.set(RELAY_TOKEN_PARAMETER, token);
  return url.href;
}

/**
 * An absolute URL of this service from PUBLIC_BASE_URL and a path (with an
 * optional query), joining the base's path prefix rather than replacing it.
 * Throws on a base that is not an http(s) URL.
 */
export function publicUrlOf(publicBaseUrl: string, pathAndQuery: string): string {
  const base = new URL(publicBaseUrl);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error('PUBLIC_BASE_URL must be an http(s) URL');
  const prefix = base.pathname.replace(/\/+$/, '');
  const suffix = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
  return `${base.origin}${prefix}${suffix}`;
}
