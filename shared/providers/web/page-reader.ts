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
import { measureHtml, type HtmlShapeLimits } from './html-shape';
import { createPageParser, type PageParser } from './page-parser';
import { pinnedGet } from './pinned-request';
import { readablePlainText, type ReadablePage } from './readable-page';
import { PAGE_READ_TIMEOUT_MS } from './read-timeout';

export { PageFetchError, PageRefusedError } from './errors';
export { PAGE_READ_TIMEOUT_MS } from './read-timeout';
export type { PageFetchFailure } from './errors';
export type { ReadablePage } from './readable-page';

/**
 * Port: reads a web page as readable text. Throws PageRefusedError when the
 * page may not be fetched, PageFetchError when it could not be read.
 */
export type PageReader = (url: string) => Promise<ReadablePage>;

/** Limits and checks of a page reader. */
export interface PageReaderOptions {
  /**
   * Time for the whole read, in milliseconds: resolving, connecting,
   * redirects, the body, and the parse of the HTML into readable text.
   * @default 5_000 (PAGE_READ_TIMEOUT_MS)
   */
  timeoutMs?: number;
  /**
   * Largest body read, in bytes (after decompression); a larger one is cut off and fails.
   * @default 1_048_576 (1 MiB)
   */
  maxBytes?: number;
  /**
   * Most elements an HTML page may have; a page with more fails as
   * `too_complex`, unparsed. Parse time grows with the element count: a
   * real page takes about 0.15 s per 1,000 elements on one core, and the
   * costliest pages within the three caps took about 1.5 s
   * (`BENCH_PARTS=parse npm run bench`), leaving most of the read's time
   * to the download.
   * @default 10_000
   */
  maxElements?: number;
  /**
   * Deepest element nesting an HTML page may have; a deeper page fails as
   * `too_complex`, unparsed. Readability walks the subtree of every
   * candidate element, so nesting costs far more than its size: 1,000
   * nested divs (10 KiB) took 12.5 s, 128 take 0.25 s. The real pages
   * measured stayed under 25 deep (Lighthouse flags more than 32).
   * @default 128
   */
  maxDepth?: number;
  /**
   * Most nesting an HTML page may have in all (`nestingWeight`): every
   * element's depth summed, each 32 characters of text counting as one
   * element at its depth; a page with more fails as `too_complex`,
   * unparsed. This bounds what neither cap above does alone: many
   * elements, or much text, inside deep nesting (900 paragraphs of text
   * inside 190 divs, a 1 MiB page, took 135 s). The real pages measured
   * weighed about 16 per element: this admits such pages up to about 6,000.
   * @default 100_000
   */
  maxNesting?: number;
  /**
   * Parses HTML into readable text, off the event loop and within the time left.
   * @default createPageParser() (worker threads of its own)
   */
  parser?: PageParser;
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

const DEFAULTS = {
  maxBytes: 1_048_576,
  maxRedirects: 5,
  maxChars: 20_000,
  maxElements: 10_000,
  maxDepth: 128,
  maxNesting: 100_000,
} as const;

/**
 * A PageReader safe to point at any URL a search result names: http and
 * https only; every hop's host resolved and EVERY address checked (so
 * loopback, private, link-local and metadata addresses are refused, also
 * when a public name resolves to them or a redirect leads there); the
 * connection made to the address checked, so a second DNS answer cannot
 * swap it (Host header and TLS name stay the URL's host); redirects
 * followed by hand, each hop checked again; the body capped; only HTML
 * and plain text read; HTML measured in one linear pass first (elements,
 * depth, nesting: over a cap, it fails unparsed), then reduced to its
 * readable text in a worker thread; one overall timeout, the parse
 * included (the worker is terminated when it runs out).
 */
export function createPageReader(options: PageReaderOptions = {}): PageReader {
  const timeoutMs = options.timeoutMs ?? PAGE_READ_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const maxChars = options.maxChars ?? DEFAULTS.maxChars;
  const shapeLimits: HtmlShapeLimits = {
    maxElements: options.maxElements ?? DEFAULTS.maxElements,
    maxDepth: options.maxDepth ?? DEFAULTS.maxDepth,
    maxNesting: options.maxNesting ?? DEFAULTS.maxNesting,
  };
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const lookup = options.lookup;
  let parser = options.parser;

  return async (url: string) => {
    const deadline = Date.now() + timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      let target = parseTarget(url);
      for (let redirects = 0; ; redirects += 1) {
        const address = await checkedAddress(target, lookup, isAllowed, controller.signal);
        const hop = await pinnedGet(target, address, maxBytes, controller.signal);
        if (hop.kind === 'body') {
          const text = decode(hop.body, hop.contentType);
          if (hop.contentType.startsWith('text/plain')) return readablePlainText(text, maxChars);
          checkShape(text, shapeLimits);
          parser ??= createPageParser();
          return await parser.parse(text, { maxChars, timeoutMs: deadline - Date.now() });
        }
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

async function checkedAddress(
  url: URL,
  lookup: HostLookup | undefined,
  isAllowed: AddressCheck,
  signal: AbortSignal,
): Promise<ResolvedAddress> {
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

const OVER: Record<keyof HtmlShapeLimits, (limits: HtmlShapeLimits) => string> = {
  maxElements: ({ maxElements }) => `the page has more than ${maxElements} elements`,
  maxDepth: ({ maxDepth }) => `the page is nested more than ${maxDepth} elements deep`,
  maxNesting: ({ maxNesting }) => `the page nests too much inside too much (a nesting weight over ${maxNesting})`,
};

/** Fails HTML over a cap as `too_complex`, before any DOM is built. */
function checkShape(html: string, limits: HtmlShapeLimits): void {
  const { over } = measureHtml(html, limits);
  if (over) throw new PageFetchError('too_complex', OVER[over](limits));
}

/** The body as text, in the charset the header (or else a `<meta charset>`) names; UTF-8 when none or unknown. */
function decode(body: Buffer, contentType: string): string {
  const declared =
    /charset="?([\w.:-]+)/i.exec(contentType)?.[1] ??
    /<meta[^>]+charset=["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
