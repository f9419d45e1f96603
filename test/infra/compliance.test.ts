import { Duration, Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaFunctionTarget } from 'aws-cdk-lib/aws-events-targets';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { ServerlessChecks } from 'cdk-nag';
import { ENVIRONMENT_NAMES, type EnvironmentName } from '../../infra/config';
import { SECRETS } from '../../shared/catalogue/secrets';
import { synthesize, type SynthesizedEnvironment } from './synthesize';
import { testApp } from './test-app';

const envs = {} as Record<EnvironmentName, SynthesizedEnvironment>;
beforeAll(() => {
  for (const name of ENVIRONMENT_NAMES) envs[name] = synthesize(name);
});

/** Shapes of real credentials that must never reach a template. */
const CREDENTIAL_SHAPES = [
  /sk-[A-Za-z0-9_-]{16,}/, // OpenAI
  /AKIA[0-9A-Z]{16}/, // AWS access key id
  /AC[0-9a-f]{32}/, // Twilio account SID
  /xox[abp]-[A-Za-z0-9-]+/, // Slack
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

describe('cdk-nag packs', () => {
  // synth.test.ts runs them on the real app of every environment and expects no finding; here, that they would find one.
  it('flag what is not acknowledged: an EventBridge target and a queue without a dead-letter queue', () => {
    const stack = new Stack(testApp(), 'Bare');
    const queue = new Queue(stack, 'Queue', { enforceSSL: true });
    const fn = new LambdaFunction(stack, 'Fn', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('x') });
    new Rule(stack, 'Rule', { schedule: Schedule.rate(Duration.minutes(5)), targets: [new LambdaFunctionTarget(fn)] });
    const rules = new ServerlessChecks(stack).validateScope(stack).violations.map((violation) => violation.ruleName);
    expect(rules).toEqual(expect.arrayContaining(['Serverless-EventBusDLQ', 'Serverless-SQSRedrivePolicy', 'Serverless-LambdaDLQ']));
    expect(queue.queueArn).toBeDefined();
  });
});

describe.each(ENVIRONMENT_NAMES)('compliance (%s)', (name) => {
  it('holds no secret value in any template', () => {
    const env = envs[name];
    const text = JSON.stringify(env.json);
    for (const shape of CREDENTIAL_SHAPES) expect(text).not.toMatch(shape);
    expect(text).not.toContain('"SecretString"');
    // Only a secret of the service's own has a value, and CloudFormation generates it: the template names its key, never a value.
    const generated = Object.values(env.json.stateful.Resources).flatMap((resource) =>
      resource.Type === 'AWS::SecretsManager::Secret' && resource.Properties?.GenerateSecretString
        ? [resource.Properties.GenerateSecretString]
        : [],
    );
    expect(generated).toEqual(
      SECRETS.flatMap((secret) =>
        secret.generated
          ? [
              {
                SecretStringTemplate: '{}',
                GenerateStringKey: secret.generated.key,
                PasswordLength: secret.generated.length,
                ExcludePunctuation: true,
              },
            ]
          : [],
      ),
    );
    expect(text).not.toContain('{{resolve:secretsmanager');
    const secretKeys = new Set(SECRETS.flatMap((secret) => secret.keys));
    for (const resource of Object.values(env.json.service.Resources)) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const variables = (resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      for (const key of Object.keys(variables)) expect(secretKeys.has(key)).toBe(false);
    }
  });
});
