/**
 * Synthesizes one environment the way `cdk synth -c env=NAME` does (same
 * cdk.json feature flags, same stage builder), minus bundling, so the tests
 * read the real templates.
 *
 * A synth takes seconds and five test files want every environment, so the
 * templates are kept on disk (synth-cache.ts): the first process to ask
 * synthesizes, the others read the JSON.
 * An environment as configured (no extra context) is synthesized as
 * `cdk synth` does it, validation plugins and CDK's CloudFormation rules
 * included, and what they found is kept with the templates
 * (`validation`, which synth.test.ts checks): one synth per environment
 * serves every file. The construct tree (for logical ids) is built only
 * when a test asks for `stage`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { EnvironmentName } from '../../infra/config';
import { addSwitchboardStage } from '../../infra/stages/switchboard-app';
import type { SwitchboardStage } from '../../infra/stages/switchboard-stage';
import {
  afterOthersSynth,
  appContextOf,
  cacheFileOf,
  readCached,
  releaseLock,
  writeAtomically,
  type Cached,
  type Templates,
  type TemplateJson,
  type ValidationRecord,
} from './synth-cache';
import { testApp } from './test-app';
import { tempDir } from '../support/temp-dir';

export type { TemplateJson, ValidationRecord } from './synth-cache';
export { canonical } from './template-json';

export interface SynthesizedEnvironment {
  /** The construct tree, built on first read. */
  readonly stage: SwitchboardStage;
  readonly stateful: Template;
  readonly service: Template;
  /** The front door's us-east-1 stack, where the environment has a public host. */
  readonly edge?: Template;
  /** The raw templates, by stack. */
  readonly json: Templates;
  /** What `cdk synth`'s checks found, for an environment synthesized as configured (no extra context). */
  readonly validation?: ValidationRecord;
}

/**
 * Synthesizes environment `name` with no credentials and no bundling; `context` adds `-c` values.
 * Prod's placeholders are let through (`-c allowPlaceholders=true`, as CI synthesizes it) unless `context` says otherwise.
 */
export function synthesize(name: EnvironmentName, context: Record<string, unknown> = {}): SynthesizedEnvironment {
  const appContext = appContextOf(name, context);
  const asConfigured = Object.keys(context).length === 0;
  let stage: SwitchboardStage | undefined;
  const build = () => (stage ??= addSwitchboardStage(testApp({ context: appContext })));
  const file = cacheFileOf(name, appContext);
  let cached = readCached(file) ?? afterOthersSynth(file);
  if (!cached) {
    try {
      cached = asConfigured ? synthesizeValidated(name, appContext) : { json: templatesOf(build()) };
      writeAtomically(file, JSON.stringify(cached));
    } finally {
      releaseLock(file);
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

/** The cdk-nag packs every synth runs (infra/stages/switchboard-app.ts). */
export const NAG_PACKS = ['AwsSolutions', 'Serverless'] as const;

/** Logical id of the CloudFormation resource behind an L2 construct (or an L1 itself). */
export function logicalId(construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  const stack = element.stack;
  return stack.resolve(element.logicalId) as string;
}
