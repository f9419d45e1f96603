import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { hubspotError, type HubSpotAnswer, type HubSpotPortal } from './hubspot-wire';

/** A request as the server received it. */
export interface ReceivedRequest {
  method: string;
  /** The whole path (prefix included), without the query string. */
  path: string;
  /** Query parameters (last value wins). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The JSON body (the text when it is not JSON), when there is one. */
  body?: unknown;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/**
 * Sees each request before the portal does; returns true when it answered
 * (or will answer) the request itself. `answer()` sends the portal's
 * normal answer, at any time (a slow answer).
 */
export type Intercept = (request: ReceivedRequest, res: ServerResponse, answer: () => void) => boolean;

/** A running HubSpot-compatible server. */
export interface HubSpotServer {
  /** The root to use as HUBSPOT_API_BASE_URL (with the prefix). */
  readonly baseUrl: string;
  /** Stops the server, cutting any answer still pending. */
  close(): Promise<void>;
}

/** Largest request body read; HubSpot's batches of 100 are far below it. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Serves a portal over HTTP on `host` at a free port, below `prefix` (a
 * path that HUBSPOT_API_BASE_URL then carries; none by default).
 */
export async function startHubSpotServer(options: {
  portal: HubSpotPortal;
  prefix?: string;
  host?: string;
  intercept?: Intercept;
}): Promise<HubSpotServer> {
  const { portal, intercept } = options;
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://hubspot');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const request: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        ...(body === undefined ? {} : { body }),
        at: Date.now(),
      };
      const answer = () => {
        if (tooLarge) return sendHubSpot(res, hubspotError(413, 'VALIDATION_ERROR', 'The request body is too large.'));
        if (prefix !== '' && !url.pathname.startsWith(`${prefix}/`))
          return sendHubSpot(res, hubspotError(404, 'OBJECT_NOT_FOUND', `No route ${url.pathname}`));
        const path = url.pathname.slice(prefix.length);
        sendHubSpot(res, portal.answer({ method: request.method, path, params: url.searchParams, headers: req.headers, body }));
      };
      if (intercept?.(request, res, answer)) return;
      answer();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host}:${port}${prefix}`,
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

/** Writes an answer: JSON, or HTML when the body is a string. */
export function sendHubSpot(res: ServerResponse, answer: HubSpotAnswer): void {
  if (res.headersSent || res.destroyed) return;
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  const type = typeof answer.body === 'string' ? 'text/html' : 'application/json;charset=utf-8';
  res.writeHead(answer.status, { 'content-type': type, ...answer.headers }).end(text);
}
