import { secretsOnFirstReadOf } from '../../shared/composition/secrets-on-first-read';
import { secretsManagerSecrets } from '../../shared/platform/secrets-manager';
import { startSecretsManagerFake, type SecretsManagerFake } from '../fakes/secrets-manager';

/** Provider credentials from Secrets Manager, through Powertools and the real SDK client, against a wire fake. */
let fake: SecretsManagerFake;
const ARN = (name: string) => `arn:aws:secretsmanager:us-east-1:123456789012:secret:${name}`;

beforeAll(async () => {
  fake = await startSecretsManagerFake();
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SECRETS_MANAGER: fake.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
});
afterAll(() => fake.close());

describe('secretsManagerSecrets', () => {
  it('reads the settings a provider secret holds, once per cache period', async () => {
    fake.set(ARN('openai-filled'), { value: { OPENAI_API_KEY: 'sk-from-secrets-manager' } });
    const source = secretsManagerSecrets([ARN('openai-filled')]);
    expect(await source.read(['OPENAI_API_KEY'])).toEqual({ OPENAI_API_KEY: 'sk-from-secrets-manager' });
    await source.read(['OPENAI_API_KEY']);
    expect(fake.requests.filter((line) => line.endsWith('openai-filled'))).toHaveLength(1);
  });

  it('treats a secret nobody has filled yet, and blank values, as unset', async () => {
    fake.set(ARN('openai-empty'), { empty: true });
    fake.set(ARN('openai-blank'), { value: { OPENAI_API_KEY: '  ' } });
    expect(await secretsManagerSecrets([ARN('openai-empty')]).read(['OPENAI_API_KEY'])).toEqual({ OPENAI_API_KEY: undefined });
    expect(await secretsManagerSecrets([ARN('openai-blank')]).read(['OPENAI_API_KEY'])).toEqual({ OPENAI_API_KEY: undefined });
  });

  it('fails with the secret name and the error kind only when it may not be read', async () => {
    const attempt = secretsManagerSecrets([ARN('not-granted')]).read(['OPENAI_API_KEY']);
    await expect(attempt).rejects.toThrow(/not-granted/);
    await expect(secretsManagerSecrets([ARN('not-granted-2')]).read(['OPENAI_API_KEY'])).rejects.toThrow(
      'Could not read provider secret not-granted-2 (GetParameterError)',
    );
  });
});

describe('secretsOnFirstReadOf', () => {
  it("reads the function's declared secrets from Secrets Manager, and only when first asked", async () => {
    fake.set(ARN('crm-key'), { value: { CRM_ENCRYPTION_KEY: 'k'.repeat(64) } });
    const source = secretsOnFirstReadOf('crmConnectionApi', { CRM_SECRET_ARN: ARN('crm-key'), CRM_ENCRYPTION_KEY: 'not-this-one' });
    expect(fake.requests.filter((line) => line.endsWith('crm-key'))).toHaveLength(0);

    expect(await source.read(['CRM_ENCRYPTION_KEY'])).toEqual({ CRM_ENCRYPTION_KEY: 'k'.repeat(64) });
    await source.read(['CRM_ENCRYPTION_KEY']);
    expect(fake.requests.filter((line) => line.endsWith('crm-key'))).toHaveLength(1);
  });

  it('reads the settings themselves when the function has no secret ARN (locally)', async () => {
    const source = secretsOnFirstReadOf('crmConnectionApi', { CRM_ENCRYPTION_KEY: ' local-key ' });
    expect(await source.read(['CRM_ENCRYPTION_KEY'])).toEqual({ CRM_ENCRYPTION_KEY: 'local-key' });
  });
});
