import {
  AddressLookupError,
  AddressRefusedError,
  isPublicAddress,
  resolvePublicAddress,
  type AddressCheck,
  type HostLookup,
  type ResolvedAddress,
} from '../../platform/http/public-address';
import { PageFetchError, PageRefusedError } from './errors';
import { pinnedGet } from './pinned-request';
import { readableHtml, readablePlainText, type ReadablePage } from './readable-text';

export { PageFetchError, PageRefusedError } from './errors';
export type { PageFetchFailure } from './errors';
export type { ReadablePage } from './readable-text';

/**
 * Port: reads a web page as readable text. Throws PageRefusedError when the
 * page may not be fetched, PageFetchError when it could not be read.
 */
export type PageReader = (url: string) => Promise<ReadablePage>;

/** Limits and checks of a page reader. */
export interface PageReaderOptions {
  /**
   * Time for the whole read, redirects included, in milliseconds.
   * @default 5_000
   */
  timeoutMs?: number;
  /**
   * Largest body read, in bytes (after decompression); a larger one is cut off and fails.
   * @default 1_048_576 (1 MiB)
   */
  maxBytes?: number;
  /**
   * Redirects followed; one more fails.
   * @default 5
   */
  maxRedirects?: number;
  /**
   * Longest readable text returned, in characters.
   * @default 20_000
   */
  maxChars?: number;
  /**
   * Which addresses may be connected to. Tests admit loopback here; nothing else should.
   * @default isPublicAddress
   */
  isAllowedAddress?: AddressCheck;
  /**
   * Name resolution.
   * @default dns.lookup(host, {all: true})
   */
  lookup?: HostLookup;
}

const DEFAULTS = { timeoutMs: 5_000, maxBytes: 1_048_576, maxRedirects: 5, maxChars: 20_000 } as const;

/**
 * A PageReader safe to point at any URL a search result names: http and
 * https only; every hop's host resolved and EVERY address checked (so
 * loopback, private, link-local and metadata addresses are refused, also
 * when a public name resolves to them or a redirect leads there); the
 * connection made to the address checked, so a second DNS answer cannot
 * swap it (Host header and TLS name stay the URL's host); redirects
 * followed by hand, each hop checked again; one overall timeout; the body
 * capped; only HTML and plain text read; HTML reduced to its readable text.
 */
export function createPageReader(options: PageReaderOptions = {}): PageReader {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const maxChars = options.maxChars ?? DEFAULTS.maxChars;
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const lookup = options.lookup;

  return async (url: string) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      let target = parseTarget(url);
      for (let redirects = 0; ; redirects += 1) {
        const address = await checkedAddress(target, lookup, isAllowed, controller.signal);
        const hop = await pinnedGet(target, address, maxBytes, controller.signal);
        if (hop.kind === 'body') return readable(hop.body, hop.contentType, maxChars);
        if (redirects >= maxRedirects) {
          throw new PageFetchError('redirects', `${target.host} redirected more than ${maxRedirects} times`, hop.status);
        }
        target = parseTarget(hop.location, target);
      }
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The URL, if it is one this reader may fetch. */
function parseTarget(location: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(location, base);
  } catch {
    throw new PageRefusedError(base ? `${base.host} redirected to an address that is not a URL` : 'the address is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PageRefusedError(`only http and https pages are read, not ${url.protocol.replace(/:$/, '')}`, url.hostname || undefined);
  }
  url.hash = '';
  return url;
}

async function checkedAddress(url: URL, lookup: HostLookup | undefined, isAllowed: AddressCheck, signal: AbortSignal): Promise<ResolvedAddress> {
  const resolving = resolvePublicAddress(url.hostname, lookup, isAllowed);
  try {
    return await raceAbort(resolving, signal);
  } catch (error) {
    if (error instanceof AddressRefusedError) throw new PageRefusedError(`${url.hostname} is not a public internet address`, url.hostname);
    if (error instanceof AddressLookupError) throw new PageFetchError('unresolved', `${url.hostname} could not be resolved`);
    throw error;
  }
}

/** The promise, or a timeout failure once the signal aborts (a slow DNS answer counts against the deadline). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  const timedOut = () => new PageFetchError('timeout', 'the page did not arrive in time');
  if (signal.aborted) return Promise.reject(timedOut());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timedOut());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function readable(body: Buffer, contentType: string, maxChars: number): ReadablePage {
  const text = decode(body, contentType);
  return contentType.startsWith('text/plain') ? readablePlainText(text, maxChars) : readableHtml(text, maxChars);
}

/** The body as text, in the charset the header (or else a `<meta charset>`) names; UTF-8 when none or unknown. */
function decode(body: Buffer, contentType: string): string {
  const declared = /charset="?([\w.:-]+)/i.exec(contentType)?.[1] ?? /<meta[^>]+charset=["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
