import { Agent, request } from 'node:http';

export interface LoadResult {
  latenciesMs: number[];
  statuses: Record<number, number>;
  elapsedMs: number;
}

/**
 * Sends `total` POSTs with at most `concurrency` in flight over keep-alive
 * connections, recording each request's latency.
 */
export async function runLoad(
  url: string,
  headers: Record<string, string>,
  body: string,
  total: number,
  concurrency: number,
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latenciesMs: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const begin = performance.now();
      const req = request(
        {
          agent,
          method: 'POST',
          hostname: target.hostname,
          port: target.port,
          path: target.pathname,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latenciesMs.push(performance.now() - begin);
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const lanes = Array.from({ length: concurrency }, async () => {
    while (next < total) {
      next += 1;
      await one();
    }
  });
  await Promise.all(lanes);
  agent.destroy();
  return { latenciesMs, statuses, elapsedMs: performance.now() - started };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
