import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretSource } from './secrets';

/**
 * In AWS, each provider's credentials are a JSON secret in Secrets Manager
 * (`{"OPENAI_API_KEY": "…"}`), fetched once and cached by Powertools for
 * `maxAgeSeconds`. Empty values count as unset.
 */
export function secretsManagerSecrets(secretArns: readonly string[], maxAgeSeconds = 300): SecretSource {
  return {
    async read(names) {
      const merged: Record<string, string | undefined> = {};
      for (const arn of secretArns) {
        const value = await readSecretJson(arn, maxAgeSeconds);
        for (const [key, raw] of Object.entries(value ?? {})) {
          if (typeof raw === 'string' && raw.trim() !== '') merged[key] = raw.trim();
        }
      }
      return Object.fromEntries(names.map((name) => [name, merged[name]]));
    },
  };
}

/**
 * A secret the operator has not filled yet has no value (GetSecretValue
 * answers ResourceNotFoundException): its settings count as unset, so the
 * provider is simply not used, as docs/configuration.md says of unset credentials.
 */
async function readSecretJson(arn: string, maxAgeSeconds: number): Promise<Record<string, unknown> | undefined> {
  try {
    return (await getSecret(arn, { transform: 'json', maxAge: maxAgeSeconds })) as Record<string, unknown> | undefined;
  } catch (error) {
    if (hasName(error, 'ResourceNotFoundException')) return undefined;
    throw new Error(
      `Could not read provider secret ${arn.split(':').slice(-1)[0] ?? 'secret'} (${error instanceof Error ? error.name : 'unknown error'})`,
    );
  }
}

function hasName(error: unknown, name: string): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current.name === name) return true;
  }
  return false;
}
