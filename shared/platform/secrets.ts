import { getSecret } from '@aws-lambda-powertools/parameters/secrets';

/** Port: provider credentials by setting name (PROVIDERS.md "Settings"). */
export interface SecretSource {
  /** The settings held by the given secrets; unset ones are absent. */
  read(names: readonly string[]): Promise<Record<string, string | undefined>>;
}

/** Locally, credentials are plain environment variables. */
export function environmentSecrets(env: Record<string, string | undefined> = process.env): SecretSource {
  return {
    async read(names) {
      return Object.fromEntries(names.map((name) => [name, env[name]?.trim() || undefined]));
    },
  };
}

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
        const value = (await getSecret(arn, { transform: 'json', maxAge: maxAgeSeconds })) as Record<string, unknown> | undefined;
        for (const [key, raw] of Object.entries(value ?? {})) {
          if (typeof raw === 'string' && raw.trim() !== '') merged[key] = raw.trim();
        }
      }
      return Object.fromEntries(names.map((name) => [name, merged[name]]));
    },
  };
}
