import { readConfig } from '../../platform/config';
import type { SecretSource } from '../../platform/secrets';
import type { LlmClient } from './port';
import { llmSettingsSchema, selectLlm } from './select';

/** How long a resolved model is kept before its key is read again (a secret filled after deploy is picked up by then). */
export const LLM_REFRESH_MS = 5 * 60 * 1000;

/**
 * A worker's model, resolved on first use: the key from the secret source
 * (Secrets Manager in AWS, the environment locally), base URL and model from
 * the environment, read and checked now so a malformed setting fails the
 * cold start. The choice is kept for LLM_REFRESH_MS; a failed lookup is
 * retried on the next use.
 */
export function lazyLlm(
  secrets: SecretSource,
  env: Record<string, string | undefined> = process.env,
  now: () => number = Date.now,
): () => Promise<LlmClient> {
  const { OPENAI_BASE_URL, OPENAI_MODEL } = readConfig(llmSettingsSchema, env);
  let pending: Promise<LlmClient> | undefined;
  let resolvedAt = 0;
  return () => {
    if (pending && now() - resolvedAt > LLM_REFRESH_MS) pending = undefined;
    if (!pending) {
      resolvedAt = now();
      pending = secrets.read(['OPENAI_API_KEY']).then(
        ({ OPENAI_API_KEY }) => selectLlm({ OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL }),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
    }
    return pending;
  };
}
