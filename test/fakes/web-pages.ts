import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One canned answer of the page server. */
export type PageReply =
  | { html: string; status?: number; headers?: Record<string, string> }
  | { body: string | Buffer; contentType: string; status?: number; headers?: Record<string, string> }
  | { redirect: string; status?: number }
  /** Sends headers, then `bytes` of HTML in chunks without ever ending (unless `bytes` is reached). */
  | { drip: { chunkBytes: number; everyMs: number; bytes?: number } }
  /** Sends nothing at all until the connection is closed. */
  | { hang: true };

/** A request the page server received. */
export interface PageRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

/** Loopback web server for page-reading tests: routes by path to canned pages, redirects, slow or endless bodies. */
export interface FakeWebPages {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  readonly requests: readonly PageRequest[];
  /** Sets (or replaces) the answer of a path (query string included, e.g. `/item?id=1`). */
  route(path: string, reply: PageReply): void;
  close(): Promise<void>;
}

/** Starts the page server on 127.0.0.1 at a free port. Unknown paths answer 404. */
export async function startFakeWebPages(routes: Record<string, PageReply> = {}): Promise<FakeWebPages> {
  const table = new Map<string, PageReply>(Object.entries(routes));
  const requests: PageRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers });
    const reply = table.get(path);
    if (!reply) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
      return;
    }
    answer(res, reply);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function answer(res: ServerResponse, reply: PageReply) {
    if ('hang' in reply) return;
    if ('redirect' in reply) {
      res.writeHead(reply.status ?? 302, { location: reply.redirect }).end();
      return;
    }
    if ('drip' in reply) {
      const { chunkBytes, everyMs, bytes } = reply.drip;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<html><body><p>');
      let sent = 0;
      const timer = setInterval(() => {
        res.write('a'.repeat(chunkBytes));
        sent += chunkBytes;
        if (bytes !== undefined && sent >= bytes) {
          clearInterval(timer);
          res.end('</p></body></html>');
        }
      }, everyMs);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if ('html' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...reply.headers }).end(reply.html);
      return;
    }
    res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType, ...reply.headers }).end(reply.body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    route(path, reply) {
      table.set(path, reply);
    },
    close() {
      for (const timer of timers) clearInterval(timer);
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
