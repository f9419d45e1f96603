export type SecretId = 'openai' | 'search' | 'twilio';

/** Provider credentials kept in Secrets Manager in AWS, the environment locally. */
export interface SecretDefinition {
  id: SecretId;
  /** Setting names (docs/configuration.md "Settings") held as JSON keys in the secret. */
  keys: string[];
  /** Environment variable through which functions learn the secret's ARN. */
  arnEnvVar: string;
}

export const SECRETS: readonly SecretDefinition[] = [
  { id: 'openai', keys: ['OPENAI_API_KEY'], arnEnvVar: 'OPENAI_SECRET_ARN' },
  { id: 'search', keys: ['GOOGLE_CSE_API_KEY', 'GOOGLE_CSE_ID', 'BRAVE_API_KEY', 'PERPLEXITY_API_KEY'], arnEnvVar: 'SEARCH_SECRET_ARN' },
  { id: 'twilio', keys: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'], arnEnvVar: 'TWILIO_SECRET_ARN' },
];
