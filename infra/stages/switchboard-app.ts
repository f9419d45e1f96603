import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { accountConcurrencyNeeded, environmentConfig, type ConfigOverrides, type EnvironmentConfig } from '../config';
import { parseOverrides } from '../config-overrides';
import { SwitchboardStage } from './switchboard-stage';

/** Id of the stage of environment `name`; also the prefix of its stack names. */
export function stageId(name: string): string {
  return `Switchboard-${name}`;
}

/**
 * Adds to `app` the one stage named by its `env` context (`-c env=NAME`),
 * deployed to the account and region of infra/config.ts unless
 * `-c account=…` / `-c region=…` say otherwise (`-c alarmEmail=…`,
 * `-c twilioFromNumber=…`, `-c publicDomain=…`, `-c publicCertificateArn=…`,
 * `-c publicHost=none`, `-c apiGatewayAccountRole=…`, `-c sourceMaps=true` and
 * `-c publicBaseUrl=…` override too; `-c allowPlaceholders=true` lets a
 * production environment's placeholders through), and cdk-nag's AwsSolutions and Serverless
 * packs as validation plugins: `app.synth()` (so `cdk synth` and `cdk deploy`) fails
 * on any unacknowledged finding.
 * @throws UnknownEnvironmentError when `env` is missing or unknown
 * @throws InvalidEnvironmentError when an override or the settings are invalid
 */
export function addSwitchboardStage(app: App): SwitchboardStage {
  const config = environmentConfig(app.node.tryGetContext('env'), contextOverrides(app));
  const stage = new SwitchboardStage(app, stageId(config.name), { config });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }), new ServerlessChecks(app, { verbose: true }));
  return stage;
}

/** The `-c` overrides of the app's context. */
function contextOverrides(app: App): ConfigOverrides {
  return parseOverrides((key) => app.node.tryGetContext(key) as unknown);
}

/** One line for the person synthesizing: where the stage deploys, where that came from, and the Lambda concurrency it needs. */
export function describeTarget(config: EnvironmentConfig): string {
  const from = (source: EnvironmentConfig['accountSource'], key: string) => (source === 'context' ? `-c ${key}` : 'infra/config.ts');
  return (
    `${stageId(config.name)}: account ${config.account} (from ${from(config.accountSource, 'account')}), ` +
    `region ${config.region} (from ${from(config.regionSource, 'region')}); ` +
    `needs Lambda account concurrency of at least ${accountConcurrencyNeeded(config)}`
  );
}
