/**
 * The synth cache: the templates of an environment (and, for one as
 * configured, what `cdk synth`'s validation found) kept on disk under a key
 * made of everything that shapes them (infra/, shared/, functions/,
 * cdk.json, package-lock.json, the context), so a synth is made once per
 * run, and reused by later runs while nothing changes. Nothing here loads
 * the CDK: reading a cached environment, or finding it missing, is cheap.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EnvironmentName } from '../../infra/config';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CDK_JSON = JSON.parse(readFileSync(resolve(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
/** What the templates are made from; a change to any of it is a new cache key. */
const SOURCES = ['infra', 'shared', 'functions', 'cdk.json', 'package-lock.json'];

/** What a synth as `cdk synth` runs it reported. */
export interface ValidationRecord {
  /** The validation plugins registered on the app. */
  plugins: string[];
  /** `plugin severity rule` of every violation any plugin reported (errors stop the synth before this). */
  findings: string[];
  /** The stage's stacks: where each deploys, and its CDK error and warning annotations. */
  stacks: { name: string; account: string; region: string; annotations: string[] }[];
}

export interface TemplateJson {
  Resources: Record<
    string,
    { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string; UpdateReplacePolicy?: string; DependsOn?: string[] }
  >;
  Outputs?: Record<string, { Value: unknown; Description?: string; Export?: { Name: unknown } }>;
}

/** An environment's raw templates, by stack. */
export interface Templates {
  readonly stateful: TemplateJson;
  readonly service: TemplateJson;
  /** The front door's us-east-1 stack, where the environment has a public host. */
  readonly edge?: TemplateJson;
}

/** What is kept on disk per environment and context. */
export interface Cached {
  json: Templates;
  validation?: ValidationRecord;
}

/**
 * The context a synth of environment `name` runs with: cdk.json's, no bundling, `context`'s `-c` values; prod's placeholders
 * let through (`-c allowPlaceholders=true`, as CI synthesizes it) unless `context` says otherwise.
 */
export function appContextOf(name: EnvironmentName, context: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...CDK_JSON.context, env: name, 'aws:cdk:bundling-stacks': [], allowPlaceholders: true, ...context };
}

/** Where the synth of environment `name` with `appContext` is kept. */
export function cacheFileOf(name: EnvironmentName, appContext: Record<string, unknown>): string {
  return join(cacheDir(), `${name}-${hash(JSON.stringify(appContext))}.json`);
}

/** Gives up the lock afterOthersSynth took on `file`. */
export function releaseLock(file: string): void {
  rmSync(`${file}.lock`, { recursive: true, force: true });
}

let dir: string | undefined;
/** A directory per state of the sources, shared by every jest worker (and by later runs while nothing changes). */
function cacheDir(): string {
  if (dir) return dir;
  const digest = createHash('sha256');
  for (const source of SOURCES) hashTree(digest, source);
  // v2: templates and what validation found (see Cached).
  dir = join(tmpdir(), `switchboard-synth-v2-${digest.digest('hex').slice(0, 16)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function hashTree(digest: ReturnType<typeof createHash>, relative: string): void {
  const path = resolve(ROOT, relative);
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    digest.update(`file ${relative}\0`).update(readFileSync(path)).update('\0');
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) hashTree(digest, `${relative}/${entry.name}`);
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** How long a synth lock may be held before it is taken as left by a process that died (when its holder cannot be asked). */
const LOCK_STALE_MS = 180_000;

/**
 * Takes the lock on `file`'s synth (a directory, made atomically, naming
 * the process that holds it; the caller releases it) and returns nothing,
 * or, while another process holds it (a jest worker, or the run's
 * background synth: prime-synth-cache.ts), waits for its synth and returns
 * it: two processes asking for one environment would otherwise both spend
 * the seconds of a synth on it. A lock whose process has ended is taken
 * over at once.
 */
export function afterOthersSynth(file: string): Cached | undefined {
  const lock = `${file}.lock`;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      const madeMeanwhile = readCached(file);
      if (madeMeanwhile) rmSync(lock, { recursive: true, force: true });
      return madeMeanwhile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isAbandoned(lock)) rmSync(lock, { recursive: true, force: true });
    // synthesize() is synchronous (tests call it in beforeAll), so it waits by blocking: nothing else runs in this worker meanwhile.
    else Atomics.wait(pause, 0, 0, 200);
    const made = readCached(file);
    if (made) return made;
  }
}

/** Whether the process that took `lock` has ended (or, when it never said which it was, the lock is older than LOCK_STALE_MS). */
function isAbandoned(lock: string): boolean {
  const held = statSync(lock, { throwIfNoEntry: false });
  if (!held) return false;
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // Between the holder's mkdir and its pid file, or a holder that died in between.
    return Date.now() - held.mtimeMs > LOCK_STALE_MS;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export function readCached(file: string): Cached | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Cached;
  } catch {
    return undefined;
  }
}

/** Two workers may synthesize the same environment at once: each writes whole, the last rename wins, both are equal. */
export function writeAtomically(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}
