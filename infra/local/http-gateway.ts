import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context } from 'aws-lambda';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types';
import { lambdaContext } from './lambda-context';
import { commandIdOfLocation, requestLogFromEnv, type RequestLog } from './request-log';

/** An API handler module's `handler`, as API Gateway invokes it. */
export type HttpHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/** One route of the gateway and the handler it invokes. */
export interface GatewayRoute {
  method: string;
  /** API Gateway path template, e.g. `/api/commands/{id}`. */
  path: string;
  functionName: string;
  timeoutSeconds: number;
  handler: HttpHandler;
}

/** API Gateway HTTP API refuses payloads over 10 MB before any function runs. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** How the gateway reports what it serves. */
export interface GatewayOptions {
  /** Called once per answered request. @default one line on stdout, quiet under LOG_LEVEL ERROR or SILENT (`requestLogFromEnv`) */
  log?: RequestLog;
  /**
   * Answers the runtime's own local paths (the local telephony's control,
   * infra/local/relay-control.ts) before routing; returns true when it took
   * the request. @default none
   */
  local?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

interface CompiledRoute extends GatewayRoute {
  pattern: RegExp;
  names: string[];
}

/**
 * An HTTP server that does what API Gateway's HTTP API does for Switchboard:
 * matches the route, turns the request into a payload v2 event, invokes the
 * handler module and writes its structured result back.
 */
export function createGateway(
  routes: GatewayRoute[],
  fallback: Omit<GatewayRoute, 'method' | 'path'>,
  options: GatewayOptions = {},
): Server {
  const compiled = routes.map(compile);
  const log = options.log ?? requestLogFromEnv(process.env);
  const server = createServer((req, res) => {
    logWhenAnswered(req, res, log);
    if (options.local?.(req, res)) return;
    void serve(req, res).catch((error: unknown) => {
      process.stderr.write(`gateway: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent)
        writeJson(res, 500, { success: false, error: { code: 'SYSTEM_ERROR', message: 'An internal error occurred.' } });
      else res.destroy();
    });
  });
  server.on('clientError', answerClientError);
  return server;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (body === undefined) {
      req.resume();
      writeJson(res, 413, { success: false, error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' } });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://local');
    const method = (req.method ?? 'GET').toUpperCase();
    let target: Omit<GatewayRoute, 'method' | 'path'> = fallback;
    let routeKey = '$default';
    let pathParameters: Record<string, string> | undefined;
    for (const route of compiled) {
      const match = route.method === method ? route.pattern.exec(url.pathname) : null;
      if (!match) continue;
      target = route;
      routeKey = `${route.method} ${route.path}`;
      pathParameters = Object.fromEntries(route.names.map((name, index) => [name, decodeSegment(match[index + 1]!)]));
      break;
    }
    const event = toEvent(req, url, method, routeKey, body, pathParameters);
    const result = await target.handler(event, lambdaContext(target.functionName, target.timeoutSeconds));
    for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
    const payload = result.body ?? '';
    res.statusCode = result.statusCode;
    if (method === 'HEAD') {
      if (!res.hasHeader('content-length')) res.setHeader('content-length', Buffer.byteLength(payload));
      res.end();
      return;
    }
    res.end(payload);
  }
}

/** API Gateway passes a segment it cannot decode as it came; the handler then answers for an id that does not exist. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function logWhenAnswered(req: IncomingMessage, res: ServerResponse, log: RequestLog): void {
  const at = new Date();
  const started = performance.now();
  res.once('finish', () => {
    const commandId = commandIdOfLocation(res.getHeader('location'));
    log({
      at,
      method: (req.method ?? 'GET').toUpperCase(),
      path: (req.url ?? '/').split('?')[0]!,
      status: res.statusCode,
      durationMs: performance.now() - started,
      ...(commandId ? { commandId } : {}),
    });
  });
}

/**
 * Answers a request Node could not parse in the error envelope, as the API
 * does: 431 HEADERS_TOO_LARGE for oversized headers, 400 INVALID_REQUEST for
 * anything else; then closes the connection.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({
    success: false,
    error: tooLarge
      ? { code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large.' }
      : { code: 'INVALID_REQUEST', message: 'The request could not be parsed.' },
  });
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function compile(route: GatewayRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { ...route, pattern: new RegExp(`^${source}/?$`), names };
}

/**
 * The body as text, or undefined once it passes the gateway's limit (the
 * rest is then read and dropped, so the 413 can be answered). Read with
 * `data` events: an async iterator over the request costs a stream wrapper
 * and a promise per chunk on every request.
 */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > GATEWAY_MAX_BODY_BYTES) return;
      size += chunk.length;
      if (size > GATEWAY_MAX_BODY_BYTES) {
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

function toEvent(
  req: IncomingMessage,
  url: URL,
  method: string,
  routeKey: string,
  body: string,
  pathParameters: Record<string, string> | undefined,
): HttpEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = query[name] ? `${query[name]},${value}` : value;
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(pathParameters ? { pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body } : {}),
    isBase64Encoded: false,
  };
}

function writeJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
