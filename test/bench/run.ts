import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * `npm run bench`: the parts named in BENCH_PARTS (default all, in this
 * order), each in a fresh process so none inherits another's heap, caches
 * or embedded data. Every part prints Markdown tables with its goal.
 *
 * - `accept`: accept path vs the two floors (BENCH_REQUESTS per round, BENCH_ROUNDS, BENCH_TARGETS)
 * - `init`: bundle size and cold-start import time per function (BENCH_INIT_RUNS, BENCH_INIT_FUNCTIONS, BENCH_SOURCE_MAPS,
 *   BENCH_INIT_INSTRUCTIONS, BENCH_INIT_INSTRUCTION_RUNS, BENCH_INIT_NODE)
 * - `drain`: a backlog of lead follow-ups worked off by the local workers
 *   (BENCH_DRAIN_COMMANDS, BENCH_DRAIN_SAMPLE, BENCH_WORKER_CONCURRENCY)
 * - `research`: end-to-end completion time of deep research with zero-latency
 *   provider fakes, and provider requests per operation (BENCH_RESEARCH_RUNS)
 * - `parse`: page parse time of the costliest page shapes the page reader's
 *   caps let through, cold and warm worker (BENCH_PARSE_RUNS)
 * - `memory`: peak RSS of the research worker reading the worst pages the
 *   reader accepts, one record and a batch in parallel (BENCH_MEMORY_BATCH)
 * - `sizing`: each API function in a sandbox process of each Lambda memory size (Lambda's heap flags), its CPU a
 *   request at the size's share of a vCPU and its peak memory, the smallest size that supports them, and the cost of
 *   `Prefer: wait` (BENCH_SIZING_REQUESTS, BENCH_SIZING_COLD_STARTS, BENCH_SIZING_WAIT_SECONDS,
 *   BENCH_SIZING_FUNCTIONS, BENCH_SIZING_NODE_FLAGS)
 * - `relay`: streamed replies on the local relay socket, prompt → first text
 *   token and → `last: true`, with a model fake streaming 30 chunks 20 ms
 *   apart (BENCH_RELAY_TURNS)
 * - `cost`: dollars per million commands (lead follow-ups, deep research, stakeholder calls talked
 *   through on the local telephony, HubSpot imports) in AWS from the calls, capacity units, CPU and
 *   stated waits of a counted backlog (BENCH_COST_COMMANDS, BENCH_COST_CALL_TURNS,
 *   BENCH_COST_IMPORT_CONTACTS, BENCH_COST_KINDS)
 */
const PARTS = {
  accept: 'accept-path.ts',
  init: 'init.ts',
  drain: 'drain.ts',
  research: 'research.ts',
  parse: 'parse.ts',
  memory: 'research-memory.ts',
  sizing: 'sizing.ts',
  relay: 'relay.ts',
  cost: 'cost.ts',
} as const;
const requested = (process.env.BENCH_PARTS ?? Object.keys(PARTS).join(',')).split(',').map((part) => part.trim());
const unknown = requested.filter((part) => !(part in PARTS));
if (unknown.length > 0) throw new Error(`Unknown BENCH_PARTS ${unknown.join(', ')}; known: ${Object.keys(PARTS).join(', ')}`);

process.stdout.write(
  `Switchboard bench on ${process.platform} ${process.arch}, Node ${process.version}, parts: ${requested.join(', ')}\n\n`,
);
for (const part of requested as (keyof typeof PARTS)[]) {
  const script = resolve(import.meta.dirname, PARTS[part]);
  const { status } = spawnSync(process.execPath, ['--import', 'tsx', script], {
    stdio: 'inherit',
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  if (status !== 0) {
    process.stderr.write(`bench part ${part} failed (exit ${status})\n`);
    process.exit(status ?? 1);
  }
}
