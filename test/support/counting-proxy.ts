import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback HTTP proxy in front of the embedded DynamoDB that counts the operations it forwards. */
export interface CountingProxy {
  /** The endpoint to hand a client instead of DynamoDB's. */
  readonly url: string;
  /** Sets where requests go (the embedded DynamoDB's endpoint). */
  forwardTo(endpoint: string): void;
  /** Operations forwarded since the last reset, by name (`GetItem`, `UpdateItem`, ...). */
  counts(): Record<string, number>;
  reset(): void;
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1; the operation is read from `X-Amz-Target`, the bodies pass through untouched. */
export async function startCountingProxy(): Promise<CountingProxy> {
  let target: URL | undefined;
  let counts: Record<string, number> = {};
  const server = createServer((req, res) => {
    const operation = String(req.headers['x-amz-target'] ?? '').replace(/^.*\./, '');
    counts[operation] = (counts[operation] ?? 0) + 1;
    if (!target) return void res.writeHead(503).end();
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwardTo(endpoint) {
      target = new URL(endpoint);
    },
    counts: () => ({ ...counts }),
    reset() {
      counts = {};
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
