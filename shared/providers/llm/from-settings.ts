import { readConfig } from '../../platform/config';
import type { SecretSource } from '../../platform/secrets';
import { noTracing, type Tracing } from '../../platform/tracing';
import type { JsonCompletionRequest, LlmClient } from './port';
import { selectLlm } from './select';
import { LLM_REFRESH_MS, llmSettingsSchema } from './settings';
import { refreshingLazy } from '../../platform/memo';

export { LLM_REFRESH_MS } from './settings';

/** Thrown when no model is configured and the offline writer is not allowed: the job fails loudly and is retried. */
export class ProviderNotConfiguredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderNotConfiguredError';
  }
}

/** What a worker's model may fall back to, and who hears of it. */
export interface LlmPolicy {
  /**
   * ALLOW_OFFLINE_PROVIDERS: the offline writer may stand in when no key is
   * set. On under `npm start`; in AWS only for environments that opt in.
   */
  allowOffline: boolean;
  /** Called for each answer the offline writer gives (a metric that alarms where keys are expected). */
  onOffline?: () => void;
  /** Called each time a job needs the model and none is configured (a loud log line and a metric that alarms). */
  onNotConfigured?: (error: ProviderNotConfiguredError) => void;
  /** Provider calls are traced in a subsegment each. @default none */
  tracing?: Tracing;
}

/**
 * A worker's model, resolved on first use: the key from the secret source
 * (Secrets Manager in AWS, the settings locally), base URL and model from
 * the settings, read and checked now so a malformed setting fails the cold
 * start. Without a key it is the offline writer only where the policy
 * allows it; otherwise every use fails with ProviderNotConfiguredError. The
 * choice is kept for LLM_REFRESH_MS; a failed lookup is retried on the next use.
 */
export function lazyLlm(
  secrets: SecretSource,
  settings: Record<string, string | undefined>,
  policy: LlmPolicy,
  now: () => number = Date.now,
): () => Promise<LlmClient> {
  const { OPENAI_BASE_URL, OPENAI_MODEL } = readConfig(llmSettingsSchema, settings);
  const resolve = async (): Promise<LlmClient> => {
    const { OPENAI_API_KEY } = await secrets.read(['OPENAI_API_KEY']);
    if (!OPENAI_API_KEY && !policy.allowOffline) {
      const error = new ProviderNotConfiguredError(
        'No OPENAI_API_KEY is set (fill the provider secret) and ALLOW_OFFLINE_PROVIDERS is not true: the job waits for the key instead of using the offline writer.',
      );
      policy.onNotConfigured?.(error);
      throw error;
    }
    return observed(await selectLlm({ OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL }), policy);
  };
  return refreshingLazy(resolve, LLM_REFRESH_MS, now);
}

/** The client with each call traced, and each offline answer reported. */
function observed(llm: LlmClient, policy: LlmPolicy): LlmClient {
  const tracing = policy.tracing ?? noTracing;
  return {
    generatedBy: llm.generatedBy,
    model: llm.model,
    async completeJson<T>(request: JsonCompletionRequest<T>) {
      const answer = await tracing.span(`## llm.${llm.generatedBy}`, { schema: request.schemaName }, () => llm.completeJson(request));
      if (answer.generatedBy === 'offline') policy.onOffline?.();
      return answer;
    },
  };
}
