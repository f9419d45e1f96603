export type SecretId = 'openai' | 'twilio';

/** Provider credentials kept in Secrets Manager in AWS, the environment locally. */
export interface SecretDefinition {
  id: SecretId;
  /** Setting names (PROVIDERS.md "Settings") held as JSON keys in the secret. */
  keys: string[];
  /** Environment variable through which functions learn the secret's ARN. */
  arnEnvVar: string;
}

export const SECRETS: readonly SecretDefinition[] = [
  { id: 'openai', keys: ['OPENAI_API_KEY'], arnEnvVar: 'OPENAI_SECRET_ARN' },
  { id: 'twilio', keys: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'], arnEnvVar: 'TWILIO_SECRET_ARN' },
];
