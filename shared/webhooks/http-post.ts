import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from '../platform/http/public-address';
import { cleanText } from '../platform/text';

/** What one POST came to: the endpoint's status, or why none came; always how long it took. */
export interface PostOutcome {
  statusCode?: number;
  durationMs: number;
  /** Why no answer came (timeout, connection refused, TLS), in words safe to show the tenant. */
  error?: string;
  /** The start of the answer's body, cleaned (at most {@link EXCERPT_CHARACTERS} characters). */
  excerpt?: string;
}

/** One delivery request: the URL (its host gives the Host header and TLS name) and the checked address the socket goes to. */
export interface PostRequest {
  url: URL;
  address: ResolvedAddress;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** Port: sends one delivery request (tests may stand in for the network; production uses {@link pinnedPost}). */
export type PostSender = (request: PostRequest) => Promise<PostOutcome>;

/** Bytes of an answer's body read at most (the rest is never read). */
const MAX_READ_BYTES = 4096;

/** Characters of an answer's body kept on the attempt. */
export const EXCERPT_CHARACTERS = 256;

/** A lookup that answers the one address already checked, whatever the name asked. */
function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * POSTs `body` to `url` over a connection to `address` (checked before,
 * so a second DNS answer cannot send it elsewhere), within `timeoutMs` for
 * everything (connect, TLS, answer, first bytes of its body). Redirects are
 * not followed: a 3xx is an answer like any other non-2xx. At most a few
 * KiB of the answer's body are read, and only an excerpt kept. Never throws.
 */
export const pinnedPost: PostSender = (request) =>
  new Promise<PostOutcome>((resolve) => {
    const started = Date.now();
    const { url } = request;
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...outcome, durationMs: Date.now() - started });
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send({
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body, 'utf8')) },
      lookup: pinnedLookup(request.address),
      agent: false,
    });
    const timer = setTimeout(() => finish({ error: `no answer within ${Math.round(request.timeoutMs / 1000)} s` }), request.timeoutMs);
    req.on('error', (error) => finish({ error: `the request failed (${errorCode(error)})` }));
    req.on('response', (res) => {
      const statusCode = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let read = 0;
      const done = () => finish({ statusCode, ...excerptOf(Buffer.concat(chunks)) });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        read += chunk.length;
        if (read >= MAX_READ_BYTES) done();
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.end(request.body);
  });

function excerptOf(body: Buffer): { excerpt?: string } {
  const text = cleanText(body.subarray(0, MAX_READ_BYTES).toString('utf8')).replace(/\s+/g, ' ').trim();
  if (!text) return {};
  const characters = Array.from(text);
  return { excerpt: characters.length > EXCERPT_CHARACTERS ? `${characters.slice(0, EXCERPT_CHARACTERS).join('')}…` : text };
}

function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.name : 'error';
}
