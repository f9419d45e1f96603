/**
 * Reading synthesized templates without the CDK: loading aws-cdk-lib and
 * building the construct tree cost a test file seconds, which a test that
 * only reads the templates need not pay. The templates come from the synth
 * cache (synth-cache.ts); the CDK is loaded only when the cache has none.
 */
import type { EnvironmentName } from '../../infra/config';
import { appContextOf, cacheFileOf, readCached, type Templates } from './synth-cache';

/** Anything that carries an environment's raw templates (a SynthesizedEnvironment does). */
export interface WithTemplates {
  readonly json: Templates;
}

/** The templates of environment `name` as configured: read from the cache, synthesized (the CDK loaded) only when missing. */
export async function synthesizedTemplates(name: EnvironmentName): Promise<WithTemplates> {
  const cached = readCached(cacheFileOf(name, appContextOf(name)));
  if (cached) return { json: cached.json };
  const { synthesize } = await import('./synthesize');
  return { json: synthesize(name).json };
}

/**
 * The logical id of the one `type` resource of the `stack` template, or, with `prefix`, of the one whose id is `prefix` (a
 * construct path, e.g. `getCommandApiRole`) and CDK's 8-character hash.
 */
export function logicalIdOf(templates: Templates, stack: keyof Templates, type: string, prefix?: string): string {
  const resources = templates[stack]?.Resources ?? {};
  const pattern = prefix === undefined ? undefined : new RegExp(`^${prefix}[0-9A-F]{8}$`);
  const ids = Object.keys(resources).filter((id) => resources[id]!.Type === type && (!pattern || pattern.test(id)));
  if (ids.length !== 1) throw new Error(`${ids.length} ${type} resources${prefix ? ` named ${prefix}` : ''} in the ${stack} stack`);
  return ids[0]!;
}

/**
 * A template value (a resource in an IAM statement, an environment
 * variable) as a comparable string: `Stateful:<id>.Arn`, `Service:<id>`,
 * `*`. Cross-stack reads (Fn::GetStackOutput, Fn::ImportValue) are
 * followed into the stateful template's outputs.
 */
export function canonical(value: unknown, env: WithTemplates, stack: 'Stateful' | 'Service' = 'Service'): string {
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

function findExport(env: WithTemplates, exportName: unknown): string {
  const outputs = env.json.stateful.Outputs ?? {};
  const name = typeof exportName === 'string' ? exportName : JSON.stringify(exportName);
  const found = Object.entries(outputs).find(([, output]) => (output as { Export?: { Name?: string } }).Export?.Name === name);
  if (!found) throw new Error(`No stateful export ${name}`);
  return found[0];
}
