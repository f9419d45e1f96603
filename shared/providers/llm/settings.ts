import * as z from 'zod/mini';
import { optionalUrl } from '../../platform/config';

/**
 * The LLM settings, as a shape for `readConfig`. All optional: no key means
 * the offline writer. Apart from the adapters, so that a function can read
 * them without loading the OpenAI client.
 */
export const llmSettingsSchema = {
  OPENAI_API_KEY: z.optional(z.string().check(z.minLength(1))),
  OPENAI_BASE_URL: optionalUrl(),
  OPENAI_MODEL: z.optional(z.string().check(z.minLength(1))),
};

/** The LLM settings as read by `readConfig(llmSettingsSchema)`. */
export type LlmSettings = z.infer<z.ZodMiniObject<typeof llmSettingsSchema>>;

/** How long a resolved model is kept before its key is read again (a secret filled after deploy is picked up by then). */
export const LLM_REFRESH_MS = 5 * 60 * 1000;
