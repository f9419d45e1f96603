import { App, type AppProps } from 'aws-cdk-lib';

/**
 * An App for a test that reads templates. CDK's built-in CloudFormation
 * validation (`@aws-cdk/core:validateAgainstDefaultRules`) checks the whole
 * assembly on every synth and takes about 4 s each time on this machine, even
 * for an empty stack; synth.test.ts runs it, with cdk-nag, on the real app of
 * every environment, so the other tests leave it out.
 */
export function testApp(props: AppProps = {}): App {
  return new App({ ...props, builtinCloudFormationValidation: false });
}
