/**
 * The whole app as `cdk synth -c env=NAME` runs it (bundling aside): the
 * validation plugins registered on the app (cdk-nag AwsSolutions, CDK's
 * CloudFormation rules) run and must pass. Slower than the template tests,
 * so it lives alone and runs in parallel with them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { ENVIRONMENTS, ENVIRONMENT_NAMES } from '../../infra/config';
import { addSwitchboardStage } from '../../infra/stages/switchboard-app';

const CDK_JSON = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};

describe('app synthesis', () => {
  it.each(ENVIRONMENT_NAMES)(
    'synthesizes %s with no credentials into its pinned account and region, passing every validation plugin',
    (name) => {
      const outdir = mkdtempSync(join(tmpdir(), `switchboard-${name}-`));
      try {
        // Prod's placeholders let through, as CI synthesizes it.
        const context = { ...CDK_JSON.context, env: name, 'aws:cdk:bundling-stacks': [], allowPlaceholders: 'true' };
        const app = new App({ outdir, context });
        addSwitchboardStage(app);
        const assembly = app.synth();
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
        }
      } finally {
        rmSync(outdir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
