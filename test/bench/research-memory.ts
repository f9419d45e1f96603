import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { functionBundleOptions } from '../../infra/constructs/bundle-options';
import { PAGE_PARSE_WORKER } from '../../shared/providers/web/parse-worker-bundle';
import { ROOT } from './function-bundle';

/**
 * Bench part `memory`: the research worker's memory with the worst pages
 * the page reader accepts. Each page is as large as the reader takes (1 MiB)
 * and as costly as its caps let through (10,000 elements, or the most text
 * the nesting weight admits); pages are served on loopback and read through
 * the real page reader, parsed by the bundled parse worker (two threads of
 * at most 128 MiB heap each). The measurement (research-memory-probe.ts) is
 * bundled with the research worker's module graph as the CDK construct
 * bundles a function, and run by plain node, so the process holds what the
 * Lambda holds. Scenarios: one record of advanced analysis (4 pages at
 * once), and a batch of BENCH_MEMORY_BATCH records (5) in parallel, as
 * Powertools' BatchProcessor runs them. Peak RSS (worker threads included:
 * one process) is sampled every 2 ms: a measurement of size, not of time.
 */

const outdir = await mkdtemp(join(tmpdir(), 'switchboard-memory-'));
try {
  // As the CDK construct bundles a function (infra/constructs/bundle-options.ts), so the probe holds what Lambda holds.
  const settings: BuildOptions = { ...functionBundleOptions(ROOT), logLevel: 'error' };
  const parseWorker = join(outdir, PAGE_PARSE_WORKER.bundle);
  await build({ ...settings, entryPoints: [join(ROOT, PAGE_PARSE_WORKER.source)], outfile: parseWorker });
  const probe = join(outdir, 'probe.mjs');
  await build({ ...settings, entryPoints: [join(import.meta.dirname, 'research-memory-probe.ts')], outfile: probe });
  const { status } = spawnSync(process.execPath, ['--expose-gc', probe, parseWorker], { stdio: 'inherit', env: process.env });
  if (status !== 0) process.exitCode = status ?? 1;
} finally {
  await rm(outdir, { recursive: true, force: true });
}
