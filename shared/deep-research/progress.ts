import * as z from 'zod/mini';
import '../platform/zod-messages';
import type { ResearchResult } from './results';

/**
 * What a research command keeps in its `progress`, as zod schemas: stored
 * state is read back through them, never cast.
 */

const resultSchema: z.ZodMiniType<ResearchResult> = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  domain: z.string(),
  publishedDate: z.optional(z.string()),
});

/** A provider the chain passed over, and why (never a key, never a URL with a key). */
export const passedOverSchema = z.object({ provider: z.string(), reason: z.string() });

/**
 * The search's outcome, kept before analysis starts: a redelivered job (a
 * worker that died during analysis) reads it and spends no provider
 * request again.
 */
export const searchOutcomeSchema = z.object({
  /** The provider that served: `google`, `brave`, `perplexity` or `local-corpus`. */
  provider: z.string(),
  /** Provider requests this search spent (every provider tried; 0 when the cache served). */
  provider_requests: z.int().check(z.minimum(0)),
  /** True when the results came from the cache. */
  cached: z.boolean(),
  /** Providers tried before the one that served, and why they could not. */
  passed_over: z.array(passedOverSchema),
  /** The results as the response shows them (de-duplicated, date-filtered, at most max_results), before analysis. */
  results: z.array(resultSchema),
});
export type SearchOutcome = z.infer<typeof searchOutcomeSchema>;

/** The progress of a deep research command. */
export const deepResearchProgressSchema = z.object({ search: z.optional(searchOutcomeSchema) });
export type DeepResearchProgress = z.infer<typeof deepResearchProgressSchema>;
