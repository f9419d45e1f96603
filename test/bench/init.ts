import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { FUNCTIONS } from '../../shared/catalogue/functions';
import { QUEUES } from '../../shared/catalogue/job-types';
import { SECRETS } from '../../shared/catalogue/secrets';
import { TABLE } from '../../shared/catalogue/table';
import { compileCounts } from './callgrind';
import { bundleFunction, deployedSettingsOf, ROOT, type BundleTarget } from './function-bundle';
import { LAMBDA_RUNTIME_BUILTINS, lambdaNodeFlags, LOAD_RUNTIME_BUILTINS } from './lambda-runtime';
import { markdownTable, median } from './table';

/**
 * Bench part `init`: every function of the catalogue bundled as the CDK
 * construct bundles it (infra/constructs/switchboard-function.ts: ESM,
 * node22, minified, the createRequire banner, its deployed settings'
 * constants, the pinned AWS SDK bundled in), and once more with `@aws-sdk/*` external (the runtime's own SDK, as
 * deployed before), to show what bundling costs. Each bundle is imported by
 * a fresh `node` started as Lambda's Node.js runtime starts a sandbox of the
 * function's memory (lambda-runtime.ts: its flags, and the built-in modules
 * its runtime client has loaded before it imports the handler; with
 * BENCH_INIT_NODE=bare, a bare `node`, as this bench did before), without
 * source maps, as deployed by default (with BENCH_SOURCE_MAPS=true, with a
 * map without sources and --enable-source-maps, as `-c sourceMaps=true`
 * deploys), with
 * AWS_LAMBDA_FUNCTION_NAME, the function's settings and its deployed settings set, so the import
 * composes the function like a cold start; the time around `await import()`
 * is measured inside the child, median of BENCH_INIT_RUNS (10); BENCH_INIT_FUNCTIONS
 * picks functions. The floor is
 * a bundle that only creates the DynamoDB and SQS clients, code split as
 * every function is (and whole too, when some function's entry turns
 * `lazyChunks` off): each function's ratio is to the floor bundled like it.
 *
 * BENCH_INIT_INSTRUCTIONS=true adds, for the bundles as deployed, the CPU
 * instructions each import takes beyond Node importing an empty
 * module (started the same way), counted by valgrind (`--tool=callgrind`,
 * about 8 s a count; the fewest of BENCH_INIT_INSTRUCTION_RUNS counts, 3 by
 * default): the same count whatever else the machine is doing, so small
 * changes show where timing on a shared machine moves by ±10–20%. Each count
 * shows the part spent compiling the bundle's modules (V8 parsing the code
 * read, run or not: 0.17–0.21 M a KiB) and the part compiling the Node
 * built-in modules the bundle loads (most of their cost once Lambda's
 * `--expose-gc` has Node's code cache of them rejected) beside the rest
 * (running them, composing, loading, collecting garbage), so a function over
 * its goal shows whether less code or less work at import would bring it
 * back.
 */
const RUNS = Number(process.env.BENCH_INIT_RUNS ?? 10);
const SOURCE_MAPS = process.env.BENCH_SOURCE_MAPS === 'true';
const INSTRUCTIONS = process.env.BENCH_INIT_INSTRUCTIONS === 'true';
const INSTRUCTION_RUNS = Number(process.env.BENCH_INIT_INSTRUCTION_RUNS ?? 3);
const NODE = process.env.BENCH_INIT_NODE ?? 'lambda';
if (NODE !== 'lambda' && NODE !== 'bare') throw new Error(`BENCH_INIT_NODE must be lambda or bare, not ${NODE}`);
/** The memory the floor and bare Node are started with under BENCH_INIT_NODE=lambda: most functions' size. */
const FLOOR_MEMORY_MB = 256;
const run = promisify(execFile);

interface Target extends BundleTarget {
  /**
   * Most its cold start may take, × the floor: 1.25 for a function a caller waits on (API, webhook), 1.5 for the rest;
   * none for the call worker, which needs Twilio's REST client, or a floor.
   */
  goal?: number;
  /** The memory its sandbox is started with (Lambda's runtime sizes the heap by it); FLOOR_MEMORY_MB when unset. */
  memoryMb?: number;
}
/** BENCH_INIT_FUNCTIONS (comma-separated function ids) measures only those, beside the floor. */
const ONLY = process.env.BENCH_INIT_FUNCTIONS?.split(',').map((id) => id.trim());
const unknownIds = ONLY?.filter((id) => !FUNCTIONS.some((fn) => fn.id === id)) ?? [];
if (unknownIds.length > 0) throw new Error(`Unknown BENCH_INIT_FUNCTIONS ${unknownIds.join(', ')}`);
const FLOOR_ENTRY = 'test/bench/init-floor.ts';
const functionTargets: Target[] = FUNCTIONS.filter((fn) => !ONLY || ONLY.includes(fn.id)).map((fn) => ({
  name: fn.id,
  entry: fn.entry,
  split: fn.lazyChunks !== false,
  goal: fn.id === 'callWorker' ? undefined : fn.kind === 'api' || fn.kind === 'webhook' ? 1.25 : 1.5,
  memoryMb: fn.memoryMb,
}));
/** The floor bundled each way a measured function is: each function is compared with the floor bundled like it. */
const floors: Target[] = [
  { name: 'floor, code split (as every function by default)', entry: FLOOR_ENTRY, split: true },
  { name: 'floor, whole (as a function with `lazyChunks: false`)', entry: FLOOR_ENTRY, split: false },
].filter((floor) => floor.split || functionTargets.some((target) => !target.split));
const targets: Target[] = [...floors, ...functionTargets];

/** Every setting any function reads at cold start, with stand-in values (nothing is called during init). */
const settings: Record<string, string> = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  LOG_LEVEL: 'ERROR',
  POWERTOOLS_SERVICE_NAME: 'switchboard',
  [TABLE.envVar]: 'switchboard-bench',
  ...Object.fromEntries(
    QUEUES.flatMap((queue) => [
      [queue.urlEnvVar, `https://sqs.us-east-1.amazonaws.com/000000000000/${queue.localName}`],
      [queue.dlqUrlEnvVar, `https://sqs.us-east-1.amazonaws.com/000000000000/${queue.localName}-dlq`],
    ]),
  ),
  ...Object.fromEntries(
    SECRETS.map((secret) => [secret.arnEnvVar, `arn:aws:secretsmanager:us-east-1:000000000000:secret:${secret.id}-AbCdEf`]),
  ),
};

/** Imports one bundle in a fresh process and answers the milliseconds the import took, composition included. */
const CHILD = `
${NODE === 'lambda' ? LOAD_RUNTIME_BUILTINS : ''}
const started = performance.now();
const module = await import(process.argv[1]);
const ms = performance.now() - started;
if (typeof module.handler !== 'function') throw new Error('no handler');
process.stdout.write(JSON.stringify({ ms }));
`;

/** The flags `node` is started with for a target of `memoryMb`. */
function nodeFlagsOf(memoryMb = FLOOR_MEMORY_MB): string[] {
  return [...(NODE === 'lambda' ? lambdaNodeFlags(memoryMb) : []), ...(SOURCE_MAPS ? ['--enable-source-maps'] : [])];
}

/** One valgrind count of an import (millions of instructions): the whole process, its modules' and Node's built-ins' compile. */
interface ImportCount {
  total: number;
  compile?: number;
  builtins?: number;
}

/**
 * Instructions (millions) valgrind counts for a fresh `node` importing `file` as importTime does: the fewest of
 * BENCH_INIT_INSTRUCTION_RUNS (3) counts, as garbage collection and hash seeds move one count by up to ±6 M.
 */
async function importInstructions(file: string, functionName: string, memoryMb?: number): Promise<ImportCount> {
  let fewest: ImportCount | undefined;
  for (let index = 0; index < INSTRUCTION_RUNS; index++) {
    const count = await countImportInstructions(file, functionName, memoryMb);
    if (!fewest || count.total < fewest.total) fewest = count;
  }
  return fewest!;
}

async function countImportInstructions(file: string, functionName: string, memoryMb?: number): Promise<ImportCount> {
  const profile = join(outdir, `callgrind-${functionName.replace(/\W/g, '-')}.out`);
  const { stderr } = await run(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${profile}`,
      '--smc-check=all-non-file',
      process.execPath,
      ...nodeFlagsOf(memoryMb),
      '--input-type=module',
      '-e',
      CHILD,
      pathToFileURL(file).href,
    ],
    {
      env: { PATH: process.env.PATH ?? '', ...settings, ...deployedSettingsOf(functionName), AWS_LAMBDA_FUNCTION_NAME: functionName },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const collected = /Collected : (\d+)/.exec(stderr);
  if (!collected) throw new Error(`valgrind counted nothing for ${functionName}: ${stderr.slice(-500)}`);
  try {
    const compiled = await compileCounts(profile);
    return { total: Number(collected[1]) / 1e6, compile: compiled.modules, builtins: compiled.builtins };
  } finally {
    await rm(profile, { force: true });
  }
}

/** `count` beyond `bare` (a compile part undefined when either lacks it). */
function beyond(count: ImportCount, bare: ImportCount): ImportCount {
  const less = (part?: number, bareValue?: number) => (part === undefined || bareValue === undefined ? undefined : part - bareValue);
  return { total: count.total - bare.total, compile: less(count.compile, bare.compile), builtins: less(count.builtins, bare.builtins) };
}

/** Millions with no decimals, or n/a when the node binary has no symbols to read the part by. */
const millions = (value?: number) => (value === undefined ? 'n/a' : value.toFixed(0));

async function importTime(file: string, functionName: string, memoryMb?: number): Promise<number> {
  const { stdout } = await run(process.execPath, [...nodeFlagsOf(memoryMb), '--input-type=module', '-e', CHILD, pathToFileURL(file).href], {
    env: { PATH: process.env.PATH ?? '', ...settings, ...deployedSettingsOf(functionName), AWS_LAMBDA_FUNCTION_NAME: functionName },
  });
  return (JSON.parse(stdout) as { ms: number }).ms;
}

const outdir = await mkdtemp(join(tmpdir(), 'switchboard-init-'));
// The SDK-external bundles find @aws-sdk/* here, as Lambda's runtime provides it.
await symlink(join(ROOT, 'node_modules'), join(outdir, 'node_modules'), 'dir');
try {
  const sections: string[] = [];
  for (const sdk of ['external', 'bundled'] as const) {
    const files = new Map<Target, string>();
    const sizes = new Map<Target, number>();
    for (const target of targets) {
      const built = await bundleFunction(target, outdir, { sdk, sourceMaps: SOURCE_MAPS });
      files.set(target, built.file);
      sizes.set(target, built.kib);
    }
    const times = new Map<Target, number[]>(targets.map((target) => [target, []]));
    // Round-robin, so a noisy moment on this machine hits every function alike.
    for (let index = 0; index < RUNS; index++) {
      for (const target of targets) times.get(target)!.push(await importTime(files.get(target)!, target.name, target.memoryMb));
    }
    const floorMs = (split: boolean) => median(times.get(floors.find((floor) => floor.split === split)!)!);
    const counting = INSTRUCTIONS && sdk === 'bundled';
    const instructions = new Map<Target, ImportCount>();
    if (counting) {
      const empty = join(outdir, 'empty.mjs');
      await writeFile(empty, 'export const handler = () => undefined;\n');
      const bare = await importInstructions(empty, 'bare');
      for (const target of targets) {
        instructions.set(target, beyond(await importInstructions(files.get(target)!, target.name, target.memoryMb), bare));
      }
    }
    const floorInstructions = (split: boolean) => instructions.get(floors.find((floor) => floor.split === split)!)!.total;
    const rows: string[][] = [];
    for (const target of targets) {
      const ms = median(times.get(target)!);
      // Judged on instructions when they are counted (the same whatever the machine is doing), else on time.
      const count = instructions.get(target);
      const ratio = count ? count.total / floorInstructions(target.split) : ms / floorMs(target.split);
      rows.push([
        target.name,
        target.split ? 'yes' : 'no',
        sizes.get(target)!.toFixed(0),
        ms.toFixed(0),
        (ms / floorMs(target.split)).toFixed(2),
        ...(count
          ? [
              count.total.toFixed(0),
              millions(count.compile),
              millions(count.builtins),
              millions(
                count.compile === undefined || count.builtins === undefined ? undefined : count.total - count.compile - count.builtins,
              ),
              (count.total / floorInstructions(target.split)).toFixed(2),
            ]
          : []),
        target.goal === undefined ? '' : `≤ ${target.goal}×: ${ratio <= target.goal ? 'met' : 'not met'}`,
      ]);
    }
    sections.push(
      `### @aws-sdk/* ${sdk === 'external' ? "external (the runtime's SDK, as deployed before)" : 'bundled in (as deployed: the pinned SDK)'}`,
      '',
      markdownTable(
        [
          'function',
          'code split',
          'KiB read at cold start',
          'init ms (median)',
          '× floor bundled alike',
          ...(counting
            ? [
                'M instructions beyond Node importing an empty module',
                'of which compiling modules',
                "of which compiling Node's built-ins",
                'the rest (running, loading, GC)',
                '× floor (instructions)',
              ]
            : []),
          counting ? 'goal (on instructions)' : 'goal (on time)',
        ],
        rows,
      ),
      '',
    );
  }
  process.stdout.write(
    [
      `## Init (esbuild as the CDK construct bundles; a fresh node per import, ` +
        `${NODE === 'lambda' ? `started as Lambda's runtime starts it (${lambdaNodeFlags(FLOOR_MEMORY_MB).join(' ')} at ${FLOOR_MEMORY_MB} MB, sized by each function's memory; ${LAMBDA_RUNTIME_BUILTINS.join(', ')} loaded first)` : 'bare'}` +
        `${SOURCE_MAPS ? ' --enable-source-maps' : ''}; source maps ${SOURCE_MAPS ? 'on' : 'off'}; composition included; median of ${RUNS})`,
      '',
      ...sections,
      '',
    ].join('\n'),
  );
} finally {
  await rm(outdir, { recursive: true, force: true });
}
