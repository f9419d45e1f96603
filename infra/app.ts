/**
 * The CDK app: synthesizes exactly one environment, the one named by
 * `-c env=NAME` (dev, staging, prod; see infra/config.ts), and says on
 * stderr where it deploys and where that came from.
 *
 *   npx --no-install cdk synth -c env=prod
 *   npm run deploy -- -c env=staging
 */
import { App } from 'aws-cdk-lib';
import { accountConcurrencyNeeded, InvalidEnvironmentError, UnknownEnvironmentError, type EnvironmentConfig } from './config';
import { addSwitchboardStage } from './stages/switchboard-app';

try {
  const app = new App();
  const stage = addSwitchboardStage(app);
  app.synth();
  process.stderr.write(`${describeTarget(stage.node.id, stage.config)}\n`);
} catch (error) {
  if (!(error instanceof UnknownEnvironmentError || error instanceof InvalidEnvironmentError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}

function describeTarget(stage: string, config: EnvironmentConfig): string {
  const from = (source: EnvironmentConfig['accountSource'], key: string) => (source === 'context' ? `-c ${key}` : 'infra/config.ts');
  return (
    `${stage}: account ${config.account} (from ${from(config.accountSource, 'account')}), ` +
    `region ${config.region} (from ${from(config.regionSource, 'region')}); ` +
    `needs Lambda account concurrency of at least ${accountConcurrencyNeeded(config)}`
  );
}
