/**
 * The CDK app: synthesizes exactly one environment, the one named by
 * `-c env=NAME` (dev, staging, prod; see infra/config.ts).
 *
 *   npx --no-install cdk synth -c env=prod
 *   npm run deploy -- -c env=staging
 */
import { App } from 'aws-cdk-lib';
import { InvalidEnvironmentError, UnknownEnvironmentError } from './config';
import { addSwitchboardStage } from './stages/switchboard-app';

try {
  const app = new App();
  addSwitchboardStage(app);
  app.synth();
} catch (error) {
  if (!(error instanceof UnknownEnvironmentError || error instanceof InvalidEnvironmentError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
