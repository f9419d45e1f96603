import { createOfflineLlm } from './offline';
import { createOpenAiLlm } from './openai';
import type { LlmClient } from './port';
import type { LlmSettings } from './settings';

/** Model used when `OPENAI_MODEL` is unset (docs/configuration.md "Settings"). */
const defaultOpenAiModel = 'gpt-4o-mini';

/**
 * The LlmClient the settings call for: OpenAI (or any compatible server at
 * `OPENAI_BASE_URL`) when `OPENAI_API_KEY` is set, else the offline writer.
 */
export function selectLlm(settings: LlmSettings): LlmClient {
  const apiKey = settings.OPENAI_API_KEY?.trim();
  if (!apiKey) return createOfflineLlm();
  return createOpenAiLlm({
    apiKey,
    baseUrl: settings.OPENAI_BASE_URL,
    model: settings.OPENAI_MODEL ?? defaultOpenAiModel,
  });
}
