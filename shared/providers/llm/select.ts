import * as z from 'zod';
import { optionalUrl } from '../../platform/config';
import { createOfflineLlm } from './offline';
import { createOpenAiLlm } from './openai';
import type { LlmClient } from './port';

/** Model used when `OPENAI_MODEL` is unset (docs/configuration.md "Settings"). */
const defaultOpenAiModel = 'gpt-4o-mini';

/** The LLM settings, as a shape for `readConfig`. All optional: no key means the offline writer. */
export const llmSettingsSchema = {
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: optionalUrl(),
  OPENAI_MODEL: z.string().min(1).optional(),
};

/** The LLM settings as read by `readConfig(llmSettingsSchema)`. */
export type LlmSettings = z.infer<z.ZodObject<typeof llmSettingsSchema>>;

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
