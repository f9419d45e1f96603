/**
 * The whole app as `cdk synth -c env=NAME` runs it (bundling aside): the
 * validation plugins registered on the app (cdk-nag AwsSolutions and
 * Serverless, CDK's CloudFormation rules) run and find nothing, errors and
 * warnings alike, and no stack carries a CDK error or warning annotation.
 * The slowest infra file (a full synth per environment), so it holds every
 * check that needs one; the other files read the cached templates.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { ENVIRONMENTS, ENVIRONMENT_NAMES } from '../../infra/config';
import { addSwitchboardStage } from '../../infra/stages/switchboard-app';
import { NAG_PACKS } from './synthesize';

const CDK_JSON = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};

/** What CDK writes beside the assembly: one report per plugin that found anything (warnings included). */
interface ValidationReport {
  pluginReports: {
    summary?: { pluginName?: string };
    violations: { ruleName: string; severity?: string; violatingResources?: unknown[] }[];
  }[];
}

describe('app synthesis', () => {
  it.each(ENVIRONMENT_NAMES)(
    'synthesizes %s with no credentials into its pinned account and region; every validation plugin finds nothing',
    (name) => {
      const outdir = mkdtempSync(join(tmpdir(), `switchboard-${name}-`));
      try {
        // Prod's placeholders let through, as CI synthesizes it.
        const context = { ...CDK_JSON.context, env: name, 'aws:cdk:bundling-stacks': [], allowPlaceholders: 'true' };
        const app = new App({ outdir, context });
        addSwitchboardStage(app);
        expect(app._validationPlugins.map((plugin) => plugin.name)).toEqual([...NAG_PACKS]);
        // Throws on any error a plugin reports.
        const assembly = app.synth();

        const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8')) as ValidationReport;
        const findings = report.pluginReports.flatMap((plugin) =>
          plugin.violations.map((violation) => `${plugin.summary?.pluginName ?? '?'} ${violation.severity ?? ''} ${violation.ruleName}`),
        );
        expect(findings).toEqual([]);

        const stage = assembly.getNestedAssembly(`assembly-Switchboard-${name}`);
        // An environment with a public host has its front door's WebACL in us-east-1, the only region CloudFront takes it from.
        const edge = ENVIRONMENTS[name].publicHost === 'none' ? [] : [`Switchboard-${name}-Edge`];
        expect(stage.stacks.map((stack) => stack.stackName).sort()).toEqual([
          ...edge,
          `Switchboard-${name}-Service`,
          `Switchboard-${name}-Stateful`,
        ]);
        for (const stack of stage.stacks) {
          const region = stack.stackName.endsWith('-Edge') ? 'us-east-1' : ENVIRONMENTS[name].region;
          expect(stack.environment).toMatchObject({ account: ENVIRONMENTS[name].account, region });
          const annotations = stack.messages
            .filter((message) => message.level === 'error' || message.level === 'warning')
            .map((message) => `${message.level} at ${message.id}: ${String(message.entry.data)}`);
          expect(annotations).toEqual([]);
        }
      } finally {
        rmSync(outdir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
