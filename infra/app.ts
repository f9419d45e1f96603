/**
 * The CDK app: synthesizes exactly one environment, the one named by
 * `-c env=NAME` (dev, staging, prod; see infra/config.ts), and says on
 * stderr where it deploys and where that came from.
 *
 *   npx --no-install cdk synth -c env=prod
 *   npm run deploy -- -c env=staging
 */
import { App } from 'aws-cdk-lib';
import { InvalidEnvironmentError, UnknownEnvironmentError } from './config';
import { addSwitchboardStage, describeTarget } from './stages/switchboard-app';

try {
  const app = new App();
  const stage = addSwitchboardStage(app);
  app.synth();
  process.stderr.write(`${describeTarget(stage.config)}\n`);
} catch (error) {
  if (!(error instanceof UnknownEnvironmentError || error instanceof InvalidEnvironmentError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
