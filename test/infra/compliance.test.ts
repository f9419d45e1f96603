import { ENVIRONMENT_NAMES, type EnvironmentName } from '../../infra/config';
import { SECRETS } from '../../shared/catalogue/secrets';
import { nagFindings, synthesize, type SynthesizedEnvironment } from './synthesize';

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

describe.each(ENVIRONMENT_NAMES)('compliance (%s)', (name) => {
  it('has no unacknowledged cdk-nag AwsSolutions finding, error or warning', () => {
    expect(nagFindings(envs[name].stage)).toEqual([]);
  });

  it('has no CDK error or warning annotation on any stack', () => {
    const { stage } = envs[name];
    const assembly = stage.synth();
    for (const stack of [stage.stateful, stage.service]) {
      const messages = assembly
        .getStackArtifact(stack.artifactId)
        .messages.filter((message) => message.level === 'error' || message.level === 'warning')
        .map((message) => `${message.level} at ${message.id}: ${String(message.entry.data)}`);
      expect(messages).toEqual([]);
    }
  });

  it('holds no secret value in any template', () => {
    const env = envs[name];
    const text = JSON.stringify(env.json);
    for (const shape of CREDENTIAL_SHAPES) expect(text).not.toMatch(shape);
    expect(text).not.toContain('SecretString');
    expect(text).not.toContain('GenerateSecretString');
    expect(text).not.toContain('{{resolve:secretsmanager');
    const secretKeys = new Set(SECRETS.flatMap((secret) => secret.keys));
    for (const resource of Object.values(env.json.service.Resources)) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const variables = (resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      for (const key of Object.keys(variables)) expect(secretKeys.has(key)).toBe(false);
    }
  });
});
