import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import {
  accountConcurrencyNeeded,
  environmentConfig,
  InvalidEnvironmentError,
  type ConfigOverrides,
  type EnvironmentConfig,
} from '../config';
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

/** The `-c` overrides given to the app; an empty value counts as not given. */
function contextOverrides(app: App): ConfigOverrides {
  const read = (key: string): string | undefined => {
    const value: unknown = app.node.tryGetContext(key);
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' && typeof value !== 'number') throw new InvalidEnvironmentError(`-c ${key} must be a string`);
    return String(value).trim();
  };
  const publicBaseUrl = read('publicBaseUrl');
  const account = read('account');
  const region = read('region');
  const alarmEmail = read('alarmEmail');
  const twilioFromNumber = read('twilioFromNumber');
  const publicHost = read('publicHost');
  if (publicHost !== undefined && publicHost !== 'none') {
    throw new InvalidEnvironmentError(`-c publicHost takes only "none" (set a host with -c publicDomain and -c publicCertificateArn)`);
  }
  const publicDomain = read('publicDomain');
  const publicCertificateArn = read('publicCertificateArn');
  const apiGatewayAccountRole = read('apiGatewayAccountRole');
  if (apiGatewayAccountRole !== undefined && apiGatewayAccountRole !== 'create' && apiGatewayAccountRole !== 'existing') {
    throw new InvalidEnvironmentError(`-c apiGatewayAccountRole must be create or existing, got "${apiGatewayAccountRole}"`);
  }
  const allowPlaceholders = flag(app, 'allowPlaceholders');
  const sourceMaps = read('sourceMaps');
  if (sourceMaps !== undefined && sourceMaps !== 'true' && sourceMaps !== 'false') {
    throw new InvalidEnvironmentError(`-c sourceMaps must be true or false, got "${sourceMaps}"`);
  }
  return {
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    ...(account ? { account } : {}),
    ...(region ? { region } : {}),
    ...(alarmEmail
      ? {
          alarmEmails: alarmEmail
            .split(',')
            .map((email) => email.trim())
            .filter(Boolean),
        }
      : {}),
    ...(twilioFromNumber ? { twilioFromNumber } : {}),
    ...(publicHost ? { publicHost } : {}),
    ...(publicDomain ? { publicDomain } : {}),
    ...(publicCertificateArn ? { publicCertificateArn } : {}),
    ...(apiGatewayAccountRole ? { apiGatewayAccountRole } : {}),
    ...(allowPlaceholders ? { allowPlaceholders } : {}),
    ...(sourceMaps ? { sourceMaps: sourceMaps === 'true' } : {}),
  };
}

/** A `-c key=true|false` switch (the CLI passes a string, a test may pass a boolean); unset is false. */
function flag(app: App, key: string): boolean {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === '' || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw new InvalidEnvironmentError(`-c ${key} must be true or false, got "${String(value)}"`);
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
