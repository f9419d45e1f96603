import { readFile } from 'node:fs/promises';
import { CLI_BOOTSTRAP_VERSION, REQUIRED_BOOTSTRAP_VERSION } from '../../infra/preflight/bootstrap-version';

/** The preflight's bootstrap versions are those of the installed CDK: an upgrade that changes them fails here. */
describe('bootstrap versions of the installed CDK', () => {
  it('requires the version aws-cdk-lib DefaultStackSynthesizer deploys with', async () => {
    const synthesizer = await readFile('node_modules/aws-cdk-lib/core/lib/stack-synthesizers/default-synthesizer.js', 'utf8');
    expect(/MIN_BOOTSTRAP_STACK_VERSION=(\d+)/.exec(synthesizer)?.[1]).toBe(String(REQUIRED_BOOTSTRAP_VERSION));
  });

  it('knows the version the project CLI bootstraps', async () => {
    const template = await readFile('node_modules/aws-cdk/lib/api/bootstrap/bootstrap-template.yaml', 'utf8');
    expect(/CdkBootstrapVersion:[\s\S]*?Value: '(\d+)'/.exec(template)?.[1]).toBe(String(CLI_BOOTSTRAP_VERSION));
  });
});
