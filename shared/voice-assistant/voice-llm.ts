import type { Logger } from '@aws-lambda-powertools/logger';
import { readConfig } from '../platform/config';
import type { SecretSource } from '../platform/secrets';
import { createOfflineLlm } from '../providers/llm/offline';
import type { StreamingLlmClient } from '../providers/llm/port';
import { LLM_REFRESH_MS, llmSettingsSchema } from '../providers/llm/settings';
import { VOICE_LLM_POLICY } from './limits';
import { refreshingLazy } from '../platform/memo';

/** Model used when `OPENAI_MODEL` is unset (docs/configuration.md "Settings"). */
const DEFAULT_MODEL = 'gpt-4o-mini';

/**
 * The model of the live call (it streams its replies), resolved on first use: OpenAI (or any
 * compatible server at OPENAI_BASE_URL) with the voice policy's short
 * timeouts when OPENAI_API_KEY is set, else the offline writer. A call in
 * progress never waits for a key: where offline answers are not allowed
 * (ALLOW_OFFLINE_PROVIDERS is not true) a missing key is logged as an error,
 * and the offline writer answers anyway (labelled `offline`), since silence
 * on a live line is worse. The choice is kept for LLM_REFRESH_MS. The
 * OpenAI client (about 100 KiB) is loaded then, not at cold start: a socket's
 * `$connect` and `$disconnect` never call the model.
 */
export function voiceLlm(
  secrets: SecretSource,
  settings: Record<string, string | undefined>,
  options: { allowOffline: boolean; logger?: Pick<Logger, 'error'>; now?: () => number },
): () => Promise<StreamingLlmClient> {
  const { OPENAI_BASE_URL, OPENAI_MODEL } = readConfig(llmSettingsSchema, settings);
  const now = options.now ?? Date.now;
  const resolve = async (): Promise<StreamingLlmClient> => {
    const apiKey = (await secrets.read(['OPENAI_API_KEY'])).OPENAI_API_KEY?.trim();
    if (apiKey) {
      const { createOpenAiLlm } = await import('../providers/llm/openai');
      return createOpenAiLlm({ apiKey, baseUrl: OPENAI_BASE_URL, model: OPENAI_MODEL ?? DEFAULT_MODEL }, VOICE_LLM_POLICY);
    }
    if (!options.allowOffline)
      options.logger?.error('Provider not configured: no OPENAI_API_KEY; the call is answered by the offline writer');
    return createOfflineLlm();
  };
  return refreshingLazy(resolve, LLM_REFRESH_MS, now);
}
