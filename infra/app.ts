/**
 * The CDK app: synthesizes exactly one environment, the one named by
 * `-c env=NAME` (dev, staging, prod; see infra/config.ts).
 *
 *   npx --no-install cdk synth -c env=prod
 *   npm run deploy -- -c env=staging
 */
import { App } from 'aws-cdk-lib';
import { addSwitchboardStage } from './stages/switchboard-app';

const app = new App();
addSwitchboardStage(app);
app.synth();
