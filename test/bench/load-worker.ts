import { parentPort, workerData } from 'node:worker_threads';
import { runLoad } from './load';

/** Runs one load in its own thread, so the load generator does not share the servers' event loop. */
const { url, headers, body, total, concurrency } = workerData as { url: string; headers: Record<string, string>; body: string; total: number; concurrency: number };
const result = await runLoad(url, headers, body, total, concurrency);
parentPort?.postMessage(result);
