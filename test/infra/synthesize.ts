/**
 * Synthesizes one environment the way `cdk synth -c env=NAME` does (same
 * cdk.json feature flags, same stage builder), minus bundling, so the tests
 * read the real templates.
 *
 * A synth takes seconds and five test files want every environment, so the
 * templates are kept on disk under a key made of everything that shapes
 * them (infra/, shared/, functions/, cdk.json, package-lock.json, the
 * context): the first file to ask synthesizes, the others read the JSON.
 * An environment as configured (no extra context) is synthesized as
 * `cdk synth` does it, validation plugins and CDK's CloudFormation rules
 * included, and what they found is kept with the templates
 * (`validation`, which synth.test.ts checks): one synth per environment
 * serves every file. The construct tree (for logical ids) is built only
 * when a test asks for `stage`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { EnvironmentName } from '../../infra/config';
import { addSwitchboardStage } from '../../infra/stages/switchboard-app';
import type { SwitchboardStage } from '../../infra/stages/switchboard-stage';
import { testApp } from './test-app';
import { tempDir } from '../support/temp-dir';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CDK_JSON = JSON.parse(readFileSync(resolve(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
/** What the templates are made from; a change to any of it is a new cache key. */
const SOURCES = ['infra', 'shared', 'functions', 'cdk.json', 'package-lock.json'];

export interface SynthesizedEnvironment {
  /** The construct tree, built on first read. */
  readonly stage: SwitchboardStage;
  readonly stateful: Template;
  readonly service: Template;
  /** The front door's us-east-1 stack, where the environment has a public host. */
  readonly edge?: Template;
  /** The raw templates, by stack. */
  readonly json: { readonly stateful: TemplateJson; readonly service: TemplateJson; readonly edge?: TemplateJson };
  /** What `cdk synth`'s checks found, for an environment synthesized as configured (no extra context). */
  readonly validation?: ValidationRecord;
}

/** What a synth as `cdk synth` runs it reported. */
export interface ValidationRecord {
  /** The validation plugins registered on the app. */
  plugins: string[];
  /** `plugin severity rule` of every violation any plugin reported (errors stop the synth before this). */
  findings: string[];
  /** The stage's stacks: where each deploys, and its CDK error and warning annotations. */
  stacks: { name: string; account: string; region: string; annotations: string[] }[];
}

/** What is kept on disk per environment and context. */
interface Cached {
  json: Templates;
  validation?: ValidationRecord;
}

export interface TemplateJson {
  Resources: Record<
    string,
    { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string; UpdateReplacePolicy?: string; DependsOn?: string[] }
  >;
  Outputs?: Record<string, { Value: unknown; Description?: string; Export?: { Name: unknown } }>;
}

type Templates = SynthesizedEnvironment['json'];

/**
 * Synthesizes environment `name` with no credentials and no bundling; `context` adds `-c` values.
 * Prod's placeholders are let through (`-c allowPlaceholders=true`, as CI synthesizes it) unless `context` says otherwise.
 */
export function synthesize(name: EnvironmentName, context: Record<string, unknown> = {}): SynthesizedEnvironment {
  const appContext = { ...CDK_JSON.context, env: name, 'aws:cdk:bundling-stacks': [], allowPlaceholders: true, ...context };
  const asConfigured = Object.keys(context).length === 0;
  let stage: SwitchboardStage | undefined;
  const build = () => (stage ??= addSwitchboardStage(testApp({ context: appContext })));
  const file = join(cacheDir(), `${name}-${hash(JSON.stringify(appContext))}.json`);
  let cached = readCached(file) ?? afterOthersSynth(file);
  if (!cached) {
    try {
      cached = asConfigured ? synthesizeValidated(name, appContext) : { json: templatesOf(build()) };
      writeAtomically(file, JSON.stringify(cached));
    } finally {
      rmSync(`${file}.lock`, { recursive: true, force: true });
    }
  }
  const { json, validation } = cached;
  return {
    get stage() {
      return build();
    },
    stateful: Template.fromJSON(json.stateful),
    service: Template.fromJSON(json.service),
    ...(json.edge ? { edge: Template.fromJSON(json.edge) } : {}),
    json,
    ...(validation ? { validation } : {}),
  };
}

function templatesOf(stage: SwitchboardStage): Templates {
  return {
    stateful: Template.fromStack(stage.stateful).toJSON() as TemplateJson,
    service: Template.fromStack(stage.service).toJSON() as TemplateJson,
    ...(stage.edge ? { edge: Template.fromStack(stage.edge).toJSON() as TemplateJson } : {}),
  };
}

/** What CDK writes beside the assembly: one report per plugin that found anything (warnings included). */
interface ValidationReport {
  pluginReports: {
    summary?: { pluginName?: string };
    violations: { ruleName: string; severity?: string }[];
  }[];
}

/** The synth `cdk synth -c env=NAME` runs (bundling aside): a plain App, its validation plugins and CDK's CloudFormation rules. */
function synthesizeValidated(name: EnvironmentName, context: Record<string, unknown>): Cached {
  const app = new App({ outdir: tempDir(`synth-${name}`), context });
  const stage = addSwitchboardStage(app);
  const plugins = app._validationPlugins.map((plugin) => plugin.name);
  // Throws on any error a plugin reports.
  const assembly = app.synth();
  const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8')) as ValidationReport;
  const nested = assembly.getNestedAssembly(`assembly-${stage.stageName}`);
  const template = (stack: { artifactId: string }) => nested.getStackArtifact(stack.artifactId).template as TemplateJson;
  const stacks = nested.stacks.map((stack) => ({
    name: stack.stackName,
    account: stack.environment.account,
    region: stack.environment.region,
    annotations: stack.messages
      .filter((message) => message.level === 'error' || message.level === 'warning')
      .map((message) => `${message.level} at ${message.id}: ${String(message.entry.data)}`),
  }));
  return {
    json: {
      stateful: template(stage.stateful),
      service: template(stage.service),
      ...(stage.edge ? { edge: template(stage.edge) } : {}),
    },
    validation: {
      plugins,
      findings: report.pluginReports.flatMap((plugin) =>
        plugin.violations.map((violation) => `${plugin.summary?.pluginName ?? '?'} ${violation.severity ?? ''} ${violation.ruleName}`),
      ),
      stacks,
    },
  };
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

/** How long a synth lock may be held before it is taken as left by a worker that died. */
const LOCK_STALE_MS = 180_000;

/**
 * Takes the lock on `file`'s synth (a directory, made atomically; the caller
 * releases it) and returns nothing, or, while another jest worker holds it,
 * waits for that worker's synth and returns it: two workers asking for one environment at the start
 * of a run would otherwise both spend the seconds of a synth on it.
 */
function afterOthersSynth(file: string): Cached | undefined {
  const lock = `${file}.lock`;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      const madeMeanwhile = readCached(file);
      if (madeMeanwhile) rmSync(lock, { recursive: true, force: true });
      return madeMeanwhile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = statSync(lock, { throwIfNoEntry: false });
    if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
    // synthesize() is synchronous (tests call it in beforeAll), so it waits by blocking: nothing else runs in this worker meanwhile.
    else Atomics.wait(pause, 0, 0, 200);
    const made = readCached(file);
    if (made) return made;
  }
}

function readCached(file: string): Cached | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Cached;
  } catch {
    return undefined;
  }
}

/** Two workers may synthesize the same environment at once: each writes whole, the last rename wins, both are equal. */
function writeAtomically(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/** The cdk-nag packs every synth runs (infra/stages/switchboard-app.ts). */
export const NAG_PACKS = ['AwsSolutions', 'Serverless'] as const;

/** Logical id of the CloudFormation resource behind an L2 construct (or an L1 itself). */
export function logicalId(construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  const stack = element.stack;
  return stack.resolve(element.logicalId) as string;
}

/**
 * A template value (a resource in an IAM statement, an environment
 * variable) as a comparable string: `Stateful:<id>.Arn`, `Service:<id>`,
 * `*`. Cross-stack reads (Fn::GetStackOutput, Fn::ImportValue) are
 * followed into the stateful template's outputs.
 */
export function canonical(value: unknown, env: SynthesizedEnvironment, stack: 'Stateful' | 'Service' = 'Service'): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item) => canonical(item, env, stack)).join(',');
  if (value && typeof value === 'object') {
    const [[fn, arg]] = Object.entries(value) as [[string, unknown]];
    if (fn === 'Ref') return `${stack}:${String(arg)}`;
    if (fn === 'Fn::GetAtt') {
      const [id, attribute] = arg as [string, string];
      return `${stack}:${id}.${attribute}`;
    }
    if (fn === 'Fn::Join') {
      const [separator, parts] = arg as [string, unknown[]];
      return parts.map((part) => canonical(part, env, stack)).join(separator);
    }
    if (fn === 'Fn::GetStackOutput' || fn === 'Fn::ImportValue') {
      const outputName = fn === 'Fn::GetStackOutput' ? (arg as { OutputName: string }).OutputName : findExport(env, arg);
      const output = env.json.stateful.Outputs?.[outputName];
      if (!output) throw new Error(`No stateful output ${outputName}`);
      return canonical(output.Value, env, 'Stateful');
    }
  }
  throw new Error(`Cannot canonicalize ${JSON.stringify(value)}`);
}

function findExport(env: SynthesizedEnvironment, exportName: unknown): string {
  const outputs = env.json.stateful.Outputs ?? {};
  const name = typeof exportName === 'string' ? exportName : JSON.stringify(exportName);
  const found = Object.entries(outputs).find(([, output]) => (output as { Export?: { Name?: string } }).Export?.Name === name);
  if (!found) throw new Error(`No stateful export ${name}`);
  return found[0];
}

/** The one resource of `type` in `template` whose logical id is `id`, with its properties. */
export function resource(template: TemplateJson, id: string): { Type: string; Properties: Record<string, unknown> } {
  const found = template.Resources[id];
  if (!found) throw new Error(`No resource ${id}`);
  return { Type: found.Type, Properties: found.Properties ?? {} };
}
