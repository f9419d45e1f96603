import { Worker } from 'node:worker_threads';
import { startLocalRuntime } from '../../infra/local/runtime';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { createSqsClient } from '../../shared/platform/sqs';
import { startFloorServer } from './floor-server';
import { percentile, type LoadResult } from './load';
import { markdownTable, median } from './table';

/**
 * Bench part `accept`: the accept path of the local runtime (POST → 202) at
 * concurrency 1 and 64, beside two floors measured in the same run on the
 * same embedded services: a bare HTTP server doing PutItem + SendMessage,
 * and one doing the accept path's storage work, GetItem (the lead) beside a
 * Query (the tenant's state of it), then PutItem + SendMessage. Goal: p50
 * ≤ 1.10× the same-work floor at both.
 * A third, diagnostic floor makes the same four calls with the service's
 * own items (the command record with its two index entries, the job
 * envelope): what the accept path costs beyond it is code, not data. A
 * fourth writes the command record without its index entries; the three
 * split the accept path's ratio to the same-work floor into the items'
 * size, their index entries and the path's code.
 * `acceptLimited` is the same accept path for a tenant held to every limit
 * (each high enough never to refuse): a request rate (one conditional write
 * per request), an in-progress limit (the command's write becomes a
 * transaction taking a place) and monthly caps (the month's totals, read at
 * most every 5 s): what they add is its ratio to `accept`.
 */
const TOTAL = Number(process.env.BENCH_REQUESTS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CONCURRENCIES = [1, 64];
const GOAL = 1.1;
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
/** A tenant held to limits it never reaches here (every request takes from its bucket and a place; none is refused). */
const LIMITED_KEY = `sbk_${'l'.repeat(32)}`;

process.env.LOG_LEVEL = 'ERROR';
const runtime = await startLocalRuntime({
  // Functions composed at start: the figures leave their init out.
  compose: 'start',
  port: 0,
  workers: false,
  scheduleEveryMs: 0,
  settings: { LOG_LEVEL: 'ERROR', OPENAI_API_KEY: undefined },
  apiKeys: {
    [LIMITED_KEY]: {
      sites: [DEMO_SITE],
      limits: { requests_per_second: 1_000, burst: 10_000, in_progress: 100_000, monthly_tokens: 1e12, monthly_searches: 1e9 },
    },
  },
});
const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1', credentials });
// The floors use the service's own client set-up (retries, timeouts), so only the work differs.
const sqs = createSqsClient({ endpoint: runtime.sqsEndpoint, region: 'us-east-1', credentials });
const floor = await startFloorServer(db, sqs, runtime.tableName, { siteId: DEMO_SITE, leadId: DEMO_LEAD });

const body = JSON.stringify({ siteId: DEMO_SITE, leadId: DEMO_LEAD, followUpType: 'email', productInterest: ['booking calendar'] });
const json = { 'content-type': 'application/json' };
const targets = {
  putSend: { url: floor.putSendUrl, headers: json },
  getPutSend: { url: floor.getPutSendUrl, headers: json },
  sameItems: { url: floor.sameItemsUrl, headers: json },
  sameItemsUnindexed: { url: floor.sameItemsUnindexedUrl, headers: json },
  accept: { url: `${runtime.url}/api/agents/sales/leadFollowUp`, headers: { ...json, 'x-api-key': runtime.apiKey } },
  acceptLimited: { url: `${runtime.url}/api/agents/sales/leadFollowUp`, headers: { ...json, 'x-api-key': LIMITED_KEY } },
};
type TargetName = keyof typeof targets;
/**
 * BENCH_TARGETS (comma-separated) picks targets, e.g. `accept` alone under a profiler; the ratios need the Put+Send and Get+Put+Send
 * floors.
 */
const ORDER = (
  process.env.BENCH_TARGETS?.split(',') ?? ['putSend', 'getPutSend', 'sameItemsUnindexed', 'sameItems', 'accept', 'acceptLimited']
).filter((name): name is TargetName => name in targets);
const LABELS: Record<TargetName, string> = {
  putSend: 'floor: PutItem + SendMessage',
  getPutSend: 'floor: GetItem ‖ Query + PutItem + SendMessage',
  sameItems: 'diagnostic: same calls, service items',
  sameItemsUnindexed: 'diagnostic: same calls, service items without index entries',
  accept: 'accept path (POST → 202)',
  acceptLimited: 'accept path, tenant with every limit',
};

/** Node 20 will not start a worker from a .ts file, so the worker boots through tsx's API. */
const LOAD_WORKER_BOOTSTRAP = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => tsx.tsImport(${JSON.stringify(
  new URL('./load-worker.ts', import.meta.url).href,
)}, ${JSON.stringify(import.meta.url)}));`;

/** One load in its own thread, so the load generator does not share the servers' event loop; anything but 202 fails the bench. */
function load(name: TargetName, total: number, concurrency: number): Promise<LoadResult & { cpuUsPerRequest: number }> {
  return new Promise<LoadResult & { cpuUsPerRequest: number }>((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER_BOOTSTRAP, { eval: true, workerData: { ...targets[name], body, total, concurrency } });
    let cpu: NodeJS.CpuUsage;
    worker.on('message', (message: 'ready' | LoadResult) => {
      if (message === 'ready') {
        cpu = process.cpuUsage();
        worker.postMessage('go');
        return;
      }
      // CPU time of the whole process (servers, embedded services and load generator) per request: far less disturbed by other processes
      // than latency.
      const used = process.cpuUsage(cpu);
      resolve({ ...message, cpuUsPerRequest: (used.user + used.system) / message.latenciesMs.length });
    });
    worker.once('error', reject);
  }).then((result) => {
    const other = Object.keys(result.statuses).filter((status) => status !== '202');
    if (other.length > 0) throw new Error(`${LABELS[name]} answered other than 202: ${JSON.stringify(result.statuses)}`);
    return result;
  });
}

type Measured = Awaited<ReturnType<typeof load>>;

interface Summary {
  p50: number;
  p99: number;
  rps: number;
  cpuUs: number;
}

const summary = (results: Measured[]): Summary => ({
  p50: median(results.map((result) => percentile(result.latenciesMs, 50))),
  p99: median(results.map((result) => percentile(result.latenciesMs, 99))),
  rps: median(results.map((result) => (result.latenciesMs.length / result.elapsedMs) * 1000)),
  cpuUs: median(results.map((result) => result.cpuUsPerRequest)),
});

const latencyRows: string[][] = [];
const ratioRows: string[][] = [];
const limitRows: string[][] = [];
const splitRows: string[][] = [];
const verdicts: boolean[] = [];
for (const concurrency of CONCURRENCIES) {
  for (const name of ORDER) await load(name, 200, concurrency);
  const rounds = Object.fromEntries(Object.keys(targets).map((name) => [name, []])) as unknown as Record<TargetName, Measured[]>;
  // Alternating rounds (the starting target rotates), so a noisy moment hits all three; medians are reported.
  for (let round = 0; round < ROUNDS; round++) {
    for (let step = 0; step < ORDER.length; step++) {
      const name = ORDER[(round + step) % ORDER.length]!;
      rounds[name].push(await load(name, TOTAL, concurrency));
    }
  }
  const s = Object.fromEntries(ORDER.map((name) => [name, summary(rounds[name])])) as Partial<Record<TargetName, Summary>>;
  for (const name of ORDER) {
    latencyRows.push([
      String(concurrency),
      LABELS[name],
      s[name]!.p50.toFixed(2),
      s[name]!.p99.toFixed(2),
      s[name]!.rps.toFixed(0),
      s[name]!.cpuUs.toFixed(0),
    ]);
  }
  if (!s.accept || !s.putSend || !s.getPutSend) continue;
  // Ratios are taken within each round (its loads ran back to back), then the median over rounds.
  const between = (name: TargetName, floorName: TargetName, p = 50) => {
    const perRound = rounds[name].map(
      (result, round) => percentile(result.latenciesMs, p) / percentile(rounds[floorName][round]!.latenciesMs, p),
    );
    return { median: median(perRound), min: Math.min(...perRound), max: Math.max(...perRound) };
  };
  const ratio = (floorName: TargetName, p: number) => between('accept', floorName, p);
  if (s.sameItems && s.sameItemsUnindexed) {
    splitRows.push([
      String(concurrency),
      between('sameItemsUnindexed', 'getPutSend').median.toFixed(2),
      between('sameItems', 'sameItemsUnindexed').median.toFixed(2),
      between('accept', 'sameItems').median.toFixed(2),
    ]);
  }
  const sameWork = ratio('getPutSend', 50);
  if (s.acceptLimited) {
    const perRound = rounds.acceptLimited.map(
      (result, round) => percentile(result.latenciesMs, 50) / percentile(rounds.accept[round]!.latenciesMs, 50),
    );
    limitRows.push([String(concurrency), median(perRound).toFixed(2), (s.acceptLimited.cpuUs - s.accept.cpuUs).toFixed(0)]);
  }
  verdicts.push(sameWork.median <= GOAL);
  ratioRows.push([
    String(concurrency),
    ratio('putSend', 50).median.toFixed(2),
    sameWork.median.toFixed(2),
    `${sameWork.min.toFixed(2)}–${sameWork.max.toFixed(2)}`,
    ratio('getPutSend', 99).median.toFixed(2),
    s.sameItems ? ratio('sameItems', 50).median.toFixed(2) : '–',
    sameWork.median <= GOAL ? 'met' : 'not met',
  ]);
}

process.stdout.write(
  [
    `## Accept path (local runtime, workers off; ${ROUNDS} alternating rounds × ${TOTAL} requests per target and concurrency; medians over rounds, ratios within a round)`,
    '',
    markdownTable(['conc', 'target', 'p50 ms', 'p99 ms', 'req/s', 'CPU µs/req'], latencyRows),
    '',
    markdownTable(
      [
        'conc',
        'p50 ÷ Put+Send floor',
        'p50 ÷ Get+Put+Send floor',
        'range over rounds',
        'p99 ÷ Get+Put+Send floor',
        'p50 ÷ service-items floor',
        `goal p50 ≤ ${GOAL.toFixed(2)}×`,
      ],
      ratioRows,
    ),
    '',
    ...(splitRows.length > 0
      ? [
          "Where the accept path's ratio to the same-work floor goes (p50 ratios, each the median over rounds; their product is about the whole):",
          '',
          markdownTable(
            [
              'conc',
              'larger items: service items without index entries ÷ same-work floor',
              'their index entries: with ÷ without',
              'its code: accept path ÷ service items',
            ],
            splitRows,
          ),
          '',
        ]
      : []),
    ...(limitRows.length > 0
      ? [
          'Limits on and off (the same accept path; on: the tenant has a request rate, an in-progress limit and monthly caps it never reaches):',
          '',
          markdownTable(['conc', 'p50 limits on ÷ off (median over rounds)', 'CPU µs/req added'], limitRows),
          '',
        ]
      : []),
    verdicts.length === CONCURRENCIES.length
      ? `Accept path goal (p50 ≤ ${GOAL.toFixed(2)}× the same-work floor at concurrency 1 and 64): ${verdicts.every(Boolean) ? 'met' : 'NOT met'}.`
      : 'Some targets were left out (BENCH_TARGETS): no ratios.',
    '',
    '',
  ].join('\n'),
);

await floor.close();
db.destroy();
sqs.destroy();
await runtime.stop();
