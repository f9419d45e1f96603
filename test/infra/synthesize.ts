/**
 * Synthesizes one environment the way `cdk synth -c env=NAME` does (same
 * cdk.json feature flags, same stage builder), minus bundling, so the tests
 * read the real templates.
 *
 * A synth takes seconds and five test files want every environment, so the
 * templates are kept on disk under a key made of everything that shapes
 * them (infra/, shared/, functions/, cdk.json, package-lock.json, the
 * context): the first file to ask synthesizes, the others read the JSON.
 * The construct tree (for logical ids) is built only
 * when a test asks for `stage`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { EnvironmentName } from '../../infra/config';
import { addSwitchboardStage } from '../../infra/stages/switchboard-app';
import type { SwitchboardStage } from '../../infra/stages/switchboard-stage';
import { testApp } from './test-app';

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
  let stage: SwitchboardStage | undefined;
  const build = () => (stage ??= addSwitchboardStage(testApp({ context: appContext })));
  const file = join(cacheDir(), `${name}-${hash(JSON.stringify(appContext))}.json`);
  let json = readCached(file);
  if (!json) {
    const built = build();
    json = {
      stateful: Template.fromStack(built.stateful).toJSON() as TemplateJson,
      service: Template.fromStack(built.service).toJSON() as TemplateJson,
      ...(built.edge ? { edge: Template.fromStack(built.edge).toJSON() as TemplateJson } : {}),
    };
    writeAtomically(file, JSON.stringify(json));
  }
  return {
    get stage() {
      return build();
    },
    stateful: Template.fromJSON(json.stateful),
    service: Template.fromJSON(json.service),
    ...(json.edge ? { edge: Template.fromJSON(json.edge) } : {}),
    json,
  };
}

let dir: string | undefined;
/** A directory per state of the sources, shared by every jest worker (and by later runs while nothing changes). */
function cacheDir(): string {
  if (dir) return dir;
  const digest = createHash('sha256');
  for (const source of SOURCES) hashTree(digest, source);
  dir = join(tmpdir(), `switchboard-synth-${digest.digest('hex').slice(0, 16)}`);
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

function readCached(file: string): Templates | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Templates;
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
