/**
 * Fills the synth cache (synthesize.ts) with every environment as
 * configured, validated as `cdk synth` does it: run in the background by
 * test/support/synth-cache-setup.mjs when a test run includes the infra
 * project, so the first synth's seconds (CDK, cdk-nag and CloudFormation's
 * rules loaded and compiled) are spent once, beside the test files that run
 * first, rather than in whichever files need a template first, each of its
 * own, or by a worker left waiting on another's lock. It takes the same
 * locks the tests do; an environment already cached costs a read.
 *
 *   node --import tsx test/infra/prime-synth-cache.ts
 */
import { rmSync } from 'node:fs';
import { ENVIRONMENT_NAMES } from '../../infra/config';
import { appContextOf, cacheFileOf, readCached } from './synth-cache';

/**
 * Prod first: CDK's CloudFormation validation builds its rule engine for the resource types it meets and keeps it while
 * later synths need no others, and prod has them all (its front door's stack).
 */
const ORDER = [...ENVIRONMENT_NAMES].sort((a, b) => Number(b === 'prod') - Number(a === 'prod'));

const missing = ORDER.filter((name) => !readCached(cacheFileOf(name, appContextOf(name))));
if (missing.length > 0) {
  // test/support/temp-dir.ts registers its folders with the jest environment; here they are removed at the end.
  const tempDirs: string[] = [];
  Object.assign(globalThis, { __switchboardTempDirs: tempDirs });
  // Only now the CDK: a run whose environments are all cached loads none of it.
  const { synthesize } = await import('./synthesize');
  try {
    for (const name of missing) synthesize(name);
  } finally {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  }
}
