import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A delivery the receiver got: the raw body exactly as sent (what a signature covers), parsed too. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  at: number;
}

/** How the receiver answers one request: a status (with an optional body and headers), or not before `slowMs`. */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | { slowMs: number; status?: number };

/** A loopback webhook receiver, as a tenant would run one. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`; any path is accepted. */
  readonly url: string;
  readonly received: ReceivedWebhook[];
  /** The next `times` requests to `path` (any path when omitted) get this answer; then 200 again. Queued after earlier scripts. */
  answerNext(times: number, answer: ReceiverAnswer, path?: string): void;
  /** Every request to `path` gets this answer until `heal`. */
  answerAlways(path: string, answer: ReceiverAnswer): void;
  heal(): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 at a free port. By default it answers 200 `{"received":true}`. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const script: { times: number; answer: ReceiverAnswer; path?: string }[] = [];
  const always = new Map<string, ReceiverAnswer>();
  const sockets = new Set<Socket>();

  const answerFor = (path: string): ReceiverAnswer => {
    const fixed = always.get(path);
    if (fixed) return fixed;
    const index = script.findIndex((entry) => entry.path === undefined || entry.path === path);
    if (index < 0) return { status: 200, body: '{"received":true}' };
    const entry = script[index]!;
    entry.times -= 1;
    if (entry.times <= 0) script.splice(index, 1);
    return entry.answer;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://receiver').pathname;
      let body: ReceivedWebhook['body'];
      try {
        body = JSON.parse(rawBody) as ReceivedWebhook['body'];
      } catch {
        body = { id: '', type: '', created_at: '', data: {} };
      }
      received.push({ path, headers: req.headers, rawBody, body, at: Date.now() });
      respond(res, answerFor(path));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function respond(res: ServerResponse, answer: ReceiverAnswer): void {
    if ('slowMs' in answer) {
      const timer = setTimeout(() => respond(res, { status: answer.status ?? 200 }), answer.slowMs);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answerNext(times, answer, path) {
      script.push({ times, answer, ...(path === undefined ? {} : { path }) });
    },
    answerAlways(path, answer) {
      always.set(path, answer);
    },
    heal() {
      script.length = 0;
      always.clear();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
