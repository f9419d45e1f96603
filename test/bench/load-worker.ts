import { parentPort, workerData } from 'node:worker_threads';
import { runLoad } from './load';

/**
 * Runs one load in its own thread, so the load generator does not share the
 * servers' event loop. It says `ready` once booted and starts on `go`, so the
 * parent can measure the process's CPU time over the load alone.
 */
const { url, headers, body, total, concurrency } = workerData as {
  url: string;
  headers: Record<string, string>;
  body: string;
  total: number;
  concurrency: number;
};
parentPort?.once('message', () => {
  void runLoad(url, headers, body, total, concurrency).then((result) => parentPort?.postMessage(result));
});
parentPort?.postMessage('ready');
