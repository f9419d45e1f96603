/**
 * Synthesizes one environment the way `cdk synth -c env=NAME` does (same
 * cdk.json feature flags, same stage builder), minus bundling, so the tests
 * read the real templates. Call once per environment per test file.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { EnvironmentName } from '../../infra/config';
import { addSwitchboardStage } from '../../infra/stages/switchboard-app';
import type { SwitchboardStage } from '../../infra/stages/switchboard-stage';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CDK_JSON = JSON.parse(readFileSync(resolve(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };

export interface SynthesizedEnvironment {
  readonly stage: SwitchboardStage;
  readonly stateful: Template;
  readonly service: Template;
  /** The raw templates, by stack. */
  readonly json: { readonly stateful: TemplateJson; readonly service: TemplateJson };
}

export interface TemplateJson {
  Resources: Record<
    string,
    { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string; UpdateReplacePolicy?: string; DependsOn?: string[] }
  >;
  Outputs?: Record<string, { Value: unknown; Description?: string; Export?: { Name: unknown } }>;
}

/** Synthesizes environment `name` with no credentials and no bundling; `context` adds `-c` values. */
export function synthesize(name: EnvironmentName, context: Record<string, unknown> = {}): SynthesizedEnvironment {
  const app = new App({
    context: { ...CDK_JSON.context, env: name, 'aws:cdk:bundling-stacks': [], ...context },
  });
  const stage = addSwitchboardStage(app);
  const stateful = Template.fromStack(stage.stateful);
  const service = Template.fromStack(stage.service);
  return {
    stage,
    stateful,
    service,
    json: { stateful: stateful.toJSON() as TemplateJson, service: service.toJSON() as TemplateJson },
  };
}

/** cdk-nag AwsSolutions findings (errors and warnings) not acknowledged in the stage. */
export function nagFindings(stage: SwitchboardStage): { rule: string; severity: string; paths: string[] }[] {
  const report = new AwsSolutionsChecks(stage, { verbose: true }).validateScope(stage);
  return report.violations.map((violation) => ({
    rule: violation.ruleName,
    severity: violation.severity ?? 'error',
    paths: violation.violatingResources.map((resource) => resource.constructPath ?? '?'),
  }));
}

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
