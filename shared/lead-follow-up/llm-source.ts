import { readConfig } from '../platform/config';
import type { SecretSource } from '../platform/secrets';
import type { LlmClient } from '../providers/llm/port';
import { llmSettingsSchema, selectLlm } from '../providers/llm/select';

/**
 * The worker's model, resolved on first use and kept for the life of the
 * container: the key from the secret source (Secrets Manager in AWS, the
 * environment locally), base URL and model from the environment, read and
 * checked now so a malformed setting fails the cold start. A failed lookup
 * is retried on the next use.
 */
export function lazyLlm(secrets: SecretSource, env: Record<string, string | undefined> = process.env): () => Promise<LlmClient> {
  const { OPENAI_BASE_URL, OPENAI_MODEL } = readConfig(llmSettingsSchema, env);
  let pending: Promise<LlmClient> | undefined;
  return () => {
    pending ??= secrets.read(['OPENAI_API_KEY']).then(
      ({ OPENAI_API_KEY }) => selectLlm({ OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL }),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
}
