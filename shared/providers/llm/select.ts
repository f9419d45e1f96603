import { createOfflineLlm } from './offline';
import type { LlmClient } from './port';
import type { LlmSettings } from './settings';

/** Model used when `OPENAI_MODEL` is unset (docs/configuration.md "Settings"). */
const defaultOpenAiModel = 'gpt-4o-mini';

/**
 * The LlmClient the settings call for: OpenAI (or any compatible server at
 * `OPENAI_BASE_URL`) when `OPENAI_API_KEY` is set, else the offline writer.
 * The OpenAI client (about 110 KiB) is imported here, on first use, not when
 * a function starts: a worker bundled with `lazyChunks` keeps it out of its
 * cold start.
 */
export async function selectLlm(settings: LlmSettings): Promise<LlmClient> {
  const apiKey = settings.OPENAI_API_KEY?.trim();
  if (!apiKey) return createOfflineLlm();
  const { createOpenAiLlm } = await import('./openai');
  return createOpenAiLlm({
    apiKey,
    baseUrl: settings.OPENAI_BASE_URL,
    model: settings.OPENAI_MODEL ?? defaultOpenAiModel,
  });
}
