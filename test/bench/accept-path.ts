import { Worker } from 'node:worker_threads';
import { SQSClient } from '@aws-sdk/client-sqs';
import { startLocalRuntime } from '../../infra/local/runtime';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { startFloorServer } from './floor-server';
import { percentile, type LoadResult } from './load';

/**
 * `npm run bench`: the accept path of the local runtime (POST → 202) at
 * concurrency 1 and 64, beside a floor measured in the same run (a bare
 * HTTP server doing one PutItem and one SendMessage on the same embedded
 * services). Goal: p50 ≤ 1.3× the floor.
 */
const TOTAL = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCIES = [1, 64];
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

process.env.LOG_LEVEL = 'ERROR';
const runtime = await startLocalRuntime({ port: 0, workers: false, settings: { LOG_LEVEL: 'ERROR', OPENAI_API_KEY: undefined } });
const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
const sqs = new SQSClient({ endpoint: runtime.sqsEndpoint, region: 'us-east-1' });
const floor = await startFloorServer(db, sqs, runtime.tableName);

const body = JSON.stringify({ siteId: DEMO_SITE, leadId: DEMO_LEAD, followUpType: 'email', productInterest: ['booking calendar'] });
const serviceTarget = { url: `${runtime.url}/api/agents/sales/leadFollowUp`, headers: { 'content-type': 'application/json', 'x-api-key': runtime.apiKey } };
const floorTarget = { url: floor.url, headers: { 'content-type': 'application/json' } };

/** Node 20 will not start a worker from a .ts file, so the worker boots through tsx's API. */
const LOAD_WORKER_BOOTSTRAP = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => tsx.tsImport(${JSON.stringify(
  new URL('./load-worker.ts', import.meta.url).href,
)}, ${JSON.stringify(import.meta.url)}));`;

function load(target: { url: string; headers: Record<string, string> }, total: number, concurrency: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER_BOOTSTRAP, { eval: true, workerData: { ...target, body, total, concurrency } });
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
  });
}

/** Rounds per concurrency, alternating floor and service, so a noisy moment hits both; medians are reported. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const rows: string[][] = [];
for (const concurrency of CONCURRENCIES) {
  await load(floorTarget, 200, concurrency);
  await load(serviceTarget, 200, concurrency);
  const floorRounds: LoadResult[] = [];
  const serviceRounds: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    floorRounds.push(await load(floorTarget, TOTAL, concurrency));
    const serviceResult = await load(serviceTarget, TOTAL, concurrency);
    const non202 = Object.entries(serviceResult.statuses).filter(([status]) => status !== '202');
    if (non202.length > 0) throw new Error(`The service answered other than 202: ${JSON.stringify(serviceResult.statuses)}`);
    serviceRounds.push(serviceResult);
  }
  const summary = (results: LoadResult[]) => ({
    p50: median(results.map((result) => percentile(result.latenciesMs, 50))),
    p99: median(results.map((result) => percentile(result.latenciesMs, 99))),
    rps: median(results.map((result) => (result.latenciesMs.length / result.elapsedMs) * 1000)),
  });
  const f = summary(floorRounds);
  const s = summary(serviceRounds);
  rows.push([
    String(concurrency),
    `${ROUNDS}×${TOTAL}`,
    f.p50.toFixed(2),
    f.p99.toFixed(2),
    f.rps.toFixed(0),
    s.p50.toFixed(2),
    s.p99.toFixed(2),
    s.rps.toFixed(0),
    (s.p50 / f.p50).toFixed(2),
    (s.p99 / f.p99).toFixed(2),
  ]);
}

const header = ['conc', 'requests', 'floor p50 ms', 'floor p99 ms', 'floor req/s', 'accept p50 ms', 'accept p99 ms', 'accept req/s', 'p50 ratio', 'p99 ratio'];
const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => row[index]!.length)));
const line = (cells: string[]) => `| ${cells.map((cell, index) => cell.padStart(widths[index]!)).join(' | ')} |`;
process.stdout.write(
  [
    'Accept path: POST /api/agents/sales/leadFollowUp → 202 (local runtime, workers off) vs floor (bare HTTP + PutItem + SendMessage)',
    line(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
    `Medians over ${ROUNDS} alternating rounds. Goal: p50 ratio ≤ 1.30`,
    '',
  ].join('\n'),
);

await floor.close();
db.destroy();
sqs.destroy();
await runtime.stop();
