import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request a loopback fake received. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query parameters (last value wins). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The JSON body, when there is one. */
  body?: unknown;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** An answer of a fake. */
export interface FakeAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * A scripted failure: a provider's own error answer, a slow answer (the
 * normal answer after `slowMs`), a 200 whose body is not JSON, or a
 * connection dropped without an answer; `normal` answers as usual (to
 * script "two pages, then a failure").
 */
export type ScriptedFailure = FakeAnswer | { slowMs: number } | { malformed: true } | { disconnect: true } | { normal: true };

/** What every loopback provider fake offers. `Preset` names the provider's usual failures. */
export interface LoopbackFake<Preset extends string> {
  /** Root to pass as the provider's `*_BASE_URL` (it carries a path prefix, which adapters must keep). */
  readonly baseUrl: string;
  /** Every request received, in order (failed ones included). */
  readonly requests: RecordedRequest[];
  /** The next `times` requests fail this way (Infinity: until `heal`). Queued after earlier scripts. */
  failNext(times: number, how: Preset | ScriptedFailure): void;
  /** Forgets every scripted failure. */
  heal(): void;
  /** Stops the server, cutting any answer still pending. */
  close(): Promise<void>;
}

/** How one fake answers: its path, its normal answer and its named failures. */
export interface LoopbackSpec<Preset extends string> {
  method: 'GET' | 'POST';
  /** The endpoint's path after the prefix (`/customsearch/v1`). */
  endpoint: string;
  /** The normal answer (it may also refuse: bad key, bad parameters). */
  answer(request: RecordedRequest): FakeAnswer;
  /** The provider's usual failures by name, built for the request that fails. */
  presets: Record<Preset, (request: RecordedRequest) => ScriptedFailure>;
}

/** Path prefix every fake's base URL carries, so adapters that replace a base URL's path instead of joining it fail. */
export const FAKE_PREFIX = '/prefix';

/** Starts a provider fake on 127.0.0.1 at a free port. */
export async function startLoopbackFake<Preset extends string>(spec: LoopbackSpec<Preset>): Promise<LoopbackFake<Preset>> {
  const requests: RecordedRequest[] = [];
  const script: Array<{ times: number; how: Preset | ScriptedFailure }> = [];
  const sockets = new Set<Socket>();

  const nextFailure = (request: RecordedRequest): ScriptedFailure | undefined => {
    const head = script[0];
    if (!head) return undefined;
    head.times -= 1;
    if (head.times <= 0) script.shift();
    return typeof head.how === 'string' ? spec.presets[head.how](request) : head.how;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        ...(body === undefined ? {} : { body }),
        at: Date.now(),
      };
      requests.push(request);
      if (request.method !== spec.method || request.path !== `${FAKE_PREFIX}${spec.endpoint}`) {
        send(res, { status: 404, body: { error: { code: 404, message: `No route ${request.method} ${request.path}` } } });
        return;
      }
      respond(res, request, nextFailure(request));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function respond(res: ServerResponse, request: RecordedRequest, failure: ScriptedFailure | undefined): void {
    if (failure === undefined || 'normal' in failure) {
      send(res, spec.answer(request));
    } else if ('slowMs' in failure) {
      const timer = setTimeout(() => respond(res, request, undefined), failure.slowMs);
      res.on('close', () => clearTimeout(timer));
    } else if ('malformed' in failure) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"items": [{"title": "cut off');
    } else if ('disconnect' in failure) {
      res.socket?.destroy();
    } else {
      send(res, failure);
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${FAKE_PREFIX}`,
    requests,
    failNext(times, how) {
      script.push({ times, how });
    },
    heal() {
      script.length = 0;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

function send(res: ServerResponse, answer: FakeAnswer): void {
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8', ...answer.headers }).end(text);
}
