/**
 * The page was not fetched because it may not be: a scheme other than
 * http/https, or a host that is (or resolves to, or redirects to) an address
 * that is not public. The message names the host, never internals.
 */
export class PageRefusedError extends Error {
  constructor(
    message: string,
    /** The host refused, when the refusal concerns a host. */
    readonly host?: string,
  ) {
    super(message);
    this.name = 'PageRefusedError';
  }
}

/** Why a page could not be read. */
export type PageFetchFailure =
  'status' | 'timeout' | 'too_large' | 'too_complex' | 'unparsable' | 'not_html' | 'redirects' | 'network' | 'unresolved';

/**
 * The page could not be read: an error status, the time or size cap, markup
 * over the element or nesting caps (`too_complex`) or that the parser failed
 * on (`unparsable`), a body that is not HTML or text, too many redirects, a
 * connection or DNS failure.
 */
export class PageFetchError extends Error {
  constructor(
    readonly reason: PageFetchFailure,
    message: string,
    /** The HTTP status, when the server answered one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PageFetchError';
  }
}
