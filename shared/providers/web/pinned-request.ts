import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { ResolvedAddress } from '../../platform/http/public-address';
import { PageFetchError } from './errors';

/** What one request answered: a redirect to follow, or a body to read. */
export type Hop = { kind: 'redirect'; location: string; status: number } | { kind: 'body'; contentType: string; body: Buffer };

/** Content types read as pages; anything else is refused unread. */
const READABLE_TYPES = ['text/html', 'application/xhtml+xml', 'text/plain'];

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A lookup that answers the one address already checked, whatever the name:
 * the socket connects where the check said, while the URL's host still gives
 * the Host header and the TLS server name (SNI, certificate check).
 */
function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * One GET of `url` over a connection to `address`, no redirect followed.
 * The body is read only for a 2xx answer of a readable content type, and
 * reading stops (the connection is destroyed) once it passes `maxBytes`,
 * counted after decompression. `signal` aborts everything (the caller's
 * overall deadline).
 */
export function pinnedGet(url: URL, address: ResolvedAddress, maxBytes: number, signal: AbortSignal): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(error);
    };
    const succeed = (hop: Hop) => {
      if (settled) return;
      settled = true;
      resolve(hop);
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request({
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: {
        'user-agent': 'SwitchboardResearch/1.0 (page reader)',
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9',
        'accept-encoding': 'gzip, deflate, br',
      },
      lookup: pinnedLookup(address),
      agent: false,
      signal,
    });
    req.on('error', (error) =>
      fail(signal.aborted ? timedOut() : new PageFetchError('network', `${url.host} could not be reached (${errorCode(error)})`)),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        res.resume();
        const location = res.headers.location;
        if (!location) return fail(new PageFetchError('status', `${url.host} answered ${status} without a Location`, status));
        return succeed({ kind: 'redirect', location, status });
      }
      if (status < 200 || status > 299) {
        res.resume();
        return fail(new PageFetchError('status', `${url.host} answered ${status}`, status));
      }
      const contentType = (res.headers['content-type'] ?? '').toLowerCase();
      if (!READABLE_TYPES.some((type) => contentType.startsWith(type))) {
        return fail(
          new PageFetchError('not_html', `${url.host} sent ${contentType.split(';')[0] || 'no content type'}, not an HTML or text page`),
        );
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) return fail(tooLarge(url, maxBytes));
      readCapped(res, maxBytes).then(
        (body) => succeed({ kind: 'body', contentType, body }),
        (error: unknown) => fail(signal.aborted ? timedOut() : error instanceof PageFetchError ? error : brokenOff(url, error)),
      );
    });
    req.end();
  });
}

/** The body, decompressed, or a `too_large` failure once it passes `maxBytes`. */
function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const stream = decoded(res);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        stream.destroy();
        res.destroy();
        reject(new PageFetchError('too_large', `the page is larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
    if (stream !== res) res.on('error', reject);
  });
}

function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(createGunzip());
  if (encoding === 'deflate') return res.pipe(createInflate());
  if (encoding === 'br') return res.pipe(createBrotliDecompress());
  return res;
}

function timedOut(): PageFetchError {
  return new PageFetchError('timeout', 'the page did not arrive in time');
}

function tooLarge(url: URL, maxBytes: number): PageFetchError {
  return new PageFetchError('too_large', `${url.host} sent a page larger than ${maxBytes} bytes`);
}

function brokenOff(url: URL, error: unknown): PageFetchError {
  return new PageFetchError('network', `${url.host} broke off the page (${errorCode(error)})`);
}

function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.name : 'error';
}
