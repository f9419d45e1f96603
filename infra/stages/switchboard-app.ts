import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { environmentConfig } from '../config';
import { SwitchboardStage } from './switchboard-stage';

/** Id of the stage of environment `name`; also the prefix of its stack names. */
export function stageId(name: string): string {
  return `Switchboard-${name}`;
}

/**
 * Adds to `app` the one stage named by its `env` context (`-c env=NAME`),
 * and cdk-nag's AwsSolutions pack as a validation plugin: `app.synth()`
 * (so `cdk synth` and `cdk deploy`) fails on any unacknowledged finding.
 * @param processEnv where CDK_DEFAULT_ACCOUNT/REGION are read (the CLI sets them when it has credentials)
 * @throws UnknownEnvironmentError when `env` is missing or unknown
 */
export function addSwitchboardStage(
  app: App,
  processEnv: Record<string, string | undefined> = process.env,
): SwitchboardStage {
  const publicBaseUrl: unknown = app.node.tryGetContext('publicBaseUrl');
  const config = environmentConfig(
    app.node.tryGetContext('env'),
    typeof publicBaseUrl === 'string' && publicBaseUrl !== '' ? { publicBaseUrl } : {},
    processEnv,
  );
  const stage = new SwitchboardStage(app, stageId(config.name), { config });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return stage;
}
