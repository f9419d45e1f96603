import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, type GatewayRoute, type HttpHandler } from '../../infra/local/http-gateway';
import { startLocalRuntime } from '../../infra/local/runtime';
import { FUNCTIONS, functionById, type FunctionId } from '../../shared/catalogue/functions';
import { DEFAULT_ROUTE_FUNCTION, ROUTES } from '../../shared/catalogue/routes';
import { bundleFunction, deployedSettingsOf, ROOT } from './function-bundle';
import { FunctionProcess, sandboxSettings } from './function-process';
import {
  atShare,
  durationCostPerMillion,
  FULL_VCPU_MB,
  sizeVerdict,
  SIZES_MB,
  SIZING_RULE,
  supports,
  type SizeMeasurement,
} from './sizing-rule';
import { lambdaNodeFlags } from './lambda-runtime';
import { markdownTable, median } from './table';

/**
 * Bench part `sizing`: the memory each API function needs, measured. Each API function is built as deployed and run
 * in a process of its own, as a Lambda sandbox runs it (one invocation at a time), behind the local gateway (the same
 * events `npm start` makes) and against the local runtime's embedded DynamoDB and SQS in this process:
 * BENCH_SIZING_COLD_STARTS (3) cold starts per size, each with a first request, and the first sandbox then
 * BENCH_SIZING_REQUESTS (50) requests one after another of a kind it serves (`SAMPLES`). Its CPU time per
 * invocation and its peak resident memory are the function's alone; `sizing-rule.ts` turns them into the smallest
 * Lambda memory size that supports them. Then the waiting requests: a POST and a GET with `Prefer: wait=N`
 * (BENCH_SIZING_WAIT_SECONDS, 5) on a command that does not end (workers off): the CPU a waited second costs, the
 * status reads made, and what a million such waits cost at each size.
 */
const REQUESTS = Number(process.env.BENCH_SIZING_REQUESTS ?? 50);
const WAIT_SECONDS = Number(process.env.BENCH_SIZING_WAIT_SECONDS ?? 5);
/** Cold starts per size: the first request's CPU is their median. */
const COLD_STARTS = Number(process.env.BENCH_SIZING_COLD_STARTS ?? 3);
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

/** A request a function serves: the `index`th of the run. */
interface Sample {
  method: string;
  path: (index: number) => string;
  body?: (index: number) => unknown;
  headers?: Record<string, string>;
  /** The answer it must get (anything else fails the bench). */
  status: number;
  /** What the table says of it when it is not the function's main work. */
  note?: string;
}

process.env.LOG_LEVEL = 'ERROR';
let getItems = 0;
const runtime = await startLocalRuntime({
  port: 0,
  workers: false,
  scheduleEveryMs: 0,
  settings: { LOG_LEVEL: 'ERROR', OPENAI_API_KEY: undefined },
  onAwsRequest: (service, operation) => {
    if (service === 'dynamodb' && operation === 'GetItem') getItems++;
  },
});

/** Asks the local runtime (its own in-process functions): the ids the samples act on. */
async function viaRuntime(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${runtime.url}${path}`, {
    method,
    headers: { 'x-api-key': runtime.apiKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as { data?: Record<string, unknown> };
  if (!response.ok || !answer.data) throw new Error(`${method} ${path} answered ${response.status}`);
  return answer.data;
}
const leadFollowUp = { siteId: DEMO_SITE, leadId: DEMO_LEAD, followUpType: 'email', productInterest: ['booking calendar'] };
const commandIds: string[] = [];
for (let index = 0; index < 1 + SIZES_MB.length * (COLD_STARTS + REQUESTS + 1); index++)
  commandIds.push(String((await viaRuntime('POST', '/api/agents/sales/leadFollowUp', leadFollowUp)).command_id));
// A receiver that refuses at once (the discard port, nothing listening): the test call fails fast, as against a dead host.
const endpointId = String(
  (await viaRuntime('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['command.completed'] })).id,
);
const today = new Date().toISOString().slice(0, 10);

const SAMPLES: Partial<Record<FunctionId, Sample>> = {
  healthApi: { method: 'GET', path: () => '/health', status: 200 },
  notFoundApi: { method: 'GET', path: () => '/api/nothing-here', status: 404 },
  apiDocsApi: { method: 'GET', path: () => '/openapi.json', status: 200 },
  getCommandApi: { method: 'GET', path: () => `/api/commands/${commandIds[0]}`, status: 200 },
  listCommandsApi: { method: 'GET', path: () => '/api/commands?limit=20', status: 200 },
  deleteCommandApi: { method: 'DELETE', path: (index) => `/api/commands/${commandIds[index + 1]}`, status: 200 },
  usageApi: { method: 'GET', path: () => `/api/usage?from=${today}&to=${today}&group_by=type`, status: 200 },
  leadFollowUpApi: { method: 'POST', path: () => '/api/agents/sales/leadFollowUp', body: () => leadFollowUp, status: 202 },
  listFollowUpsApi: { method: 'GET', path: () => `/api/leads/${DEMO_LEAD}/follow-ups?site_id=${DEMO_SITE}`, status: 200 },
  listSiteFollowUpsApi: { method: 'GET', path: () => `/api/follow-ups?site_id=${DEMO_SITE}`, status: 200 },
  updateFollowUpApi: {
    method: 'PATCH',
    path: () => '/api/follow-ups/fu_00000000000000000000000000',
    body: () => ({ status: 'sent' }),
    status: 404,
    note: 'no such step',
  },
  leadEventsApi: {
    method: 'POST',
    path: () => `/api/leads/${DEMO_LEAD}/events`,
    body: (index) => ({ site_id: DEMO_SITE, event: { type: index % 2 ? 'clicked' : 'opened', channel: 'email' } }),
    status: 200,
  },
  pauseFollowUpsApi: {
    method: 'POST',
    path: (index) => `/api/leads/${DEMO_LEAD}/follow-ups/${index % 2 ? 'resume' : 'pause'}`,
    body: () => ({ site_id: DEMO_SITE }),
    status: 200,
  },
  stakeholderCoordinationApi: {
    method: 'POST',
    path: () => '/api/agents/cmo/stakeholder-coordination',
    body: () => ({ site_id: DEMO_SITE, lead_id: DEMO_LEAD, meeting_agenda: ['Winter campaign results'], phone_numbers: ['+14155550123'] }),
    status: 202,
  },
  deepResearchApi: {
    method: 'POST',
    path: () => '/api/deepResearch/operation',
    body: (index) => ({ operation_type: 'general_news', query: `AI chip export rules ${index}`, max_results: 3 }),
    status: 202,
  },
  webhooksApi: { method: 'GET', path: () => '/api/webhooks', status: 200 },
  webhookTestApi: { method: 'POST', path: () => `/api/webhooks/${endpointId}/test`, status: 200, note: 'receiver refuses' },
  crmSyncsApi: { method: 'GET', path: () => `/api/leads/${DEMO_LEAD}/crm-syncs?site_id=${DEMO_SITE}`, status: 200 },
  crmConnectionApi: { method: 'GET', path: () => '/api/integrations/hubspot', status: 404, note: 'not connected' },
};
/** The waits measured: a POST that waits for its command, and a poll of one (neither ends: no worker runs). */
const WAITS: { fn: FunctionId; sample: Sample }[] = [
  { fn: 'leadFollowUpApi', sample: { ...SAMPLES.leadFollowUpApi!, headers: { prefer: `wait=${WAIT_SECONDS}` } } },
  { fn: 'getCommandApi', sample: { ...SAMPLES.getCommandApi!, headers: { prefer: `wait=${WAIT_SECONDS}` } } },
];

/** BENCH_SIZING_NODE_FLAGS: more flags for every sandbox, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles` to profile them. */
const EXTRA_FLAGS = process.env.BENCH_SIZING_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
/** BENCH_SIZING_FUNCTIONS (comma-separated ids) measures only those. */
const ONLY = process.env.BENCH_SIZING_FUNCTIONS?.split(',').map((id) => id.trim());
const apiFunctions = FUNCTIONS.filter((fn) => fn.kind === 'api');
const unsampled = apiFunctions.filter((fn) => !SAMPLES[fn.id]).map((fn) => fn.id);
if (unsampled.length > 0) throw new Error(`No sizing sample for ${unsampled.join(', ')}`);

/** What every function is given here: the runtime's services, as `npm start` gives its functions. */
const settings = sandboxSettings(runtime);

// The gateway hands each route to the process of its function that runs now.
const running = new Map<FunctionId, { sandbox: FunctionProcess; memoryMb: number }>();
const invokerOf =
  (id: FunctionId): HttpHandler =>
  async (event, context) => {
    const current = running.get(id);
    if (!current) throw new Error(`${id} is not running`);
    return (await current.sandbox.invoke(event, { ...context, memoryLimitInMB: String(current.memoryMb) })).result;
  };
const routes: GatewayRoute[] = ROUTES.map((route) => {
  const fn = functionById(route.function);
  return { ...route, functionName: fn.id, timeoutSeconds: fn.timeoutSeconds, handler: invokerOf(fn.id) };
});
const fallback = functionById(DEFAULT_ROUTE_FUNCTION);
const gateway: Server = createGateway(
  routes,
  { functionName: fallback.id, timeoutSeconds: fallback.timeoutSeconds, handler: invokerOf(fallback.id) },
  { log: () => undefined },
);
await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
const gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;

/** One request through the gateway to the function's process: its CPU time there, and the answer's status. */
async function request(id: FunctionId, sample: Sample, index: number): Promise<{ cpuMs: number; status: number }> {
  const body = sample.body?.(index);
  const path = sample.path(index);
  const { sandbox } = running.get(id)!;
  const before = sandbox.invocations.length;
  const response = await fetch(`${gatewayUrl}${path}`, {
    method: sample.method,
    headers: { 'x-api-key': runtime.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...sample.headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await response.arrayBuffer();
  if (response.status !== sample.status) throw new Error(`${id}: ${sample.method} ${path} answered ${response.status}`);
  const invocation = sandbox.invocations.at(-1);
  if (sandbox.invocations.length !== before + 1 || !invocation) throw new Error(`${id} was not invoked once`);
  return { cpuMs: invocation.cpuUs / 1000, status: response.status };
}

const outdir = await mkdtemp(join(tmpdir(), 'switchboard-sizing-'));
try {
  const rows: string[][] = [];
  const waits: { fn: FunctionId; method: string; memoryMb: number; cpuMsPerSecond: number; reads: number; seconds: number }[] = [];
  for (const fn of apiFunctions.filter((candidate) => !ONLY || ONLY.includes(candidate.id))) {
    const built = await bundleFunction({ name: fn.id, entry: fn.entry, split: fn.lazyChunks !== false }, outdir);
    const sample = SAMPLES[fn.id]!;
    const measurements: SizeMeasurement[] = [];
    // The function's requests are numbered across its sandboxes (a DELETE takes a command no earlier one erased).
    let requests = 0;
    const startSandbox = async (memoryMb: number) => {
      const sandbox = await FunctionProcess.start(
        built.file,
        {
          ...settings,
          ...deployedSettingsOf(fn.id),
          // Files the deployment copies beside the bundle are read where they are.
          ...Object.fromEntries((fn.bundledFiles ?? []).map((file) => [file.setting, join(ROOT, file.source)])),
          AWS_LAMBDA_FUNCTION_NAME: fn.id,
          AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(memoryMb),
        },
        [...lambdaNodeFlags(memoryMb), ...EXTRA_FLAGS],
      );
      running.set(fn.id, { sandbox, memoryMb });
      return sandbox;
    };
    for (const memoryMb of SIZES_MB) {
      const inits: number[] = [];
      const firsts: number[] = [];
      const warm: number[] = [];
      let peakRssMb = 0;
      // Several cold starts: a first request's CPU moves by ±15% between sandboxes; the warm requests are the first one's.
      for (let coldStart = 0; coldStart < COLD_STARTS; coldStart++) {
        const sandbox = await startSandbox(memoryMb);
        try {
          inits.push(sandbox.initMs);
          firsts.push((await request(fn.id, sample, requests++)).cpuMs);
          if (coldStart > 0) continue;
          for (let index = 0; index < REQUESTS; index++) warm.push((await request(fn.id, sample, requests++)).cpuMs);
          // The waits at the size the catalogue gives the function, what a waiting caller pays for.
          for (const wait of WAITS.filter((entry) => entry.fn === fn.id && memoryMb === fn.memoryMb)) {
            const reads = getItems;
            const startedAt = performance.now();
            const { cpuMs } = await request(fn.id, wait.sample, requests++);
            const seconds = (performance.now() - startedAt) / 1000;
            waits.push({
              fn: fn.id,
              method: wait.sample.method,
              memoryMb,
              cpuMsPerSecond: cpuMs / seconds,
              reads: getItems - reads,
              seconds,
            });
          }
        } finally {
          peakRssMb = Math.max(peakRssMb, (await sandbox.stop()).peakRssMb);
          running.delete(fn.id);
        }
      }
      measurements.push({ memoryMb, initMs: median(inits), peakRssMb, firstCpuMs: median(firsts), warmCpuMs: median(warm) });
    }
    const verdict = sizeVerdict(measurements, fn.memoryMb);
    const at = (memoryMb: number) => measurements.find((entry) => entry.memoryMb === memoryMb)!;
    rows.push([
      fn.id,
      `${sample.method} ${sample
        .path(0)
        .split('?')[0]!
        .replace(/[0-9a-f-]{36}|we_\w+/g, '…')} → ${sample.status}${sample.note ? ` (${sample.note})` : ''}`,
      at(SIZES_MB[0]).initMs.toFixed(0),
      at(SIZES_MB[0]).firstCpuMs.toFixed(1),
      at(SIZES_MB[0]).warmCpuMs.toFixed(2),
      ...SIZES_MB.map((memoryMb) => {
        const measured = at(memoryMb);
        const { firstMs, warmMs } = atShare(measured);
        return `${firstMs.toFixed(0)} / ${warmMs.toFixed(0)} / ${measured.peakRssMb.toFixed(0)}${supports(measured) ? '' : ' ✗'}`;
      }),
      `${fn.memoryMb}`,
      verdict.smallest === undefined ? 'none' : `${verdict.smallest}`,
      verdict.label,
    ]);
  }

  const waitRows = waits.map((wait) => [
    wait.fn,
    `${wait.method} with Prefer: wait=${WAIT_SECONDS}`,
    `${wait.memoryMb}`,
    wait.seconds.toFixed(2),
    wait.cpuMsPerSecond.toFixed(1),
    `${wait.reads}`,
    ...SIZES_MB.map((mb) => `$${durationCostPerMillion(10, mb).toFixed(2)}`),
  ]);
  process.stdout.write(
    [
      `## Sizing (each API function built as deployed, in a sandbox process of each size with Lambda's heap flags; ` +
        `${COLD_STARTS} cold starts, the first then serving ${REQUESTS} requests)`,
      '',
      markdownTable(
        [
          'function',
          'request',
          'init ms (full CPU, median)',
          'first request CPU ms (median)',
          'warm request CPU ms (median)',
          ...SIZES_MB.map((mb) => `${mb} MB: first / warm ms at its share / peak RSS MB`),
          'catalogue MB',
          'smallest supported MB',
          'catalogue size',
        ],
        rows,
      ),
      '',
      `The first three figures are the ${SIZES_MB[0]} MB sandboxes', on this machine's cores (one core taken as one ` +
        `vCPU). A size is supported (✗ where not) when its peak RSS is at most ${(SIZING_RULE.peakRssShare * 100).toFixed(0)}% of it, ` +
        `a warm request's CPU time at its share of a vCPU (size ÷ ${FULL_VCPU_MB} MB) at most ${SIZING_RULE.warmRequestMs} ms, ` +
        `and the first request's after a cold start at most ${SIZING_RULE.firstRequestMs} ms (sizing-rule.ts).`,
      '',
      `### Waiting (no worker runs, so each wait runs its full ${WAIT_SECONDS} s), at the catalogue size; ` +
        `$ per million waits of 10 s in Lambda time at each size`,
      '',
      markdownTable(
        ['function', 'request', 'memory MB', 'seconds', 'CPU ms per waited second', 'status reads', ...SIZES_MB.map((mb) => `${mb} MB`)],
        waitRows,
      ),
      '',
    ].join('\n'),
  );
} finally {
  for (const { sandbox } of running.values()) await sandbox.stop().catch(() => undefined);
  gateway.close();
  await runtime.stop();
  await rm(outdir, { recursive: true, force: true });
}
