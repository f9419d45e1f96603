/**
 * The whole app as `cdk synth -c env=NAME` runs it (bundling aside): the
 * validation plugins registered on the app (cdk-nag AwsSolutions and
 * Serverless, CDK's CloudFormation rules) run and find nothing, errors and
 * warnings alike, and no stack carries a CDK error or warning annotation.
 * The synth is the one every infra test reads (synthesize.ts: an
 * environment as configured is synthesized that way, once).
 */
import { ENVIRONMENTS, ENVIRONMENT_NAMES } from '../../infra/config';
import { NAG_PACKS, synthesize } from './synthesize';

describe('app synthesis', () => {
  it.each(ENVIRONMENT_NAMES)(
    'synthesizes %s with no credentials into its pinned account and region; every validation plugin finds nothing',
    (name) => {
      // Prod's placeholders let through, as CI synthesizes it.
      const { validation } = synthesize(name);
      expect(validation?.plugins).toEqual([...NAG_PACKS]);
      expect(validation?.findings).toEqual([]);

      // An environment with a public host has its front door's WebACL in us-east-1, the only region CloudFront takes it from.
      const edge = ENVIRONMENTS[name].publicHost === 'none' ? [] : [`Switchboard-${name}-Edge`];
      expect(validation?.stacks.map((stack) => stack.name).sort()).toEqual([
        ...edge,
        `Switchboard-${name}-Service`,
        `Switchboard-${name}-Stateful`,
      ]);
      for (const stack of validation?.stacks ?? []) {
        const region = stack.name.endsWith('-Edge') ? 'us-east-1' : ENVIRONMENTS[name].region;
        expect({ account: stack.account, region: stack.region }).toEqual({ account: ENVIRONMENTS[name].account, region });
        expect(stack.annotations).toEqual([]);
      }
    },
    60_000,
  );
});
