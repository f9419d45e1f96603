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
import { notDeployableWarning } from './placeholders';
import { addSwitchboardStage, describeTarget } from './stages/switchboard-app';

try {
  const app = new App();
  const stage = addSwitchboardStage(app);
  app.synth();
  process.stderr.write(`${describeTarget(stage.config)}\n`);
  // A plain line, not a CDK warning annotation: CI fails a synth that prints one, and CI synthesizes prod this way on purpose.
  if (stage.config.production && stage.config.placeholders.length > 0) {
    process.stderr.write(`${notDeployableWarning(stage.node.id, stage.config.placeholders)}\n`);
  }
} catch (error) {
  if (!(error instanceof UnknownEnvironmentError || error instanceof InvalidEnvironmentError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
