import { App, type AppProps } from 'aws-cdk-lib';
import { tempDir } from '../support/temp-dir';

/**
 * An App for a test that reads templates. CDK's built-in CloudFormation
 * validation (`@aws-cdk/core:validateAgainstDefaultRules`) checks the whole
 * assembly on every synth and takes about 4 s each time on this machine, even
 * for an empty stack; synth.test.ts runs it, with cdk-nag, on the real app of
 * every environment, so the other tests leave it out.
 *
 * The assembly goes to a folder removed when the test file ends (CDK's own
 * default, a new `cdk.outXXXXXX` in the temp folder, is never removed).
 */
export function testApp(props: AppProps = {}): App {
  return new App({ outdir: tempDir('cdk-out'), ...props, builtinCloudFormationValidation: false });
}
