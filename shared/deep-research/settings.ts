import * as z from 'zod/mini';
import '../platform/zod-messages';
import { readConfig } from '../platform/config';

/** Settings of the research worker of its own (the providers read theirs: shared/providers/search/settings.ts). */
export interface DeepResearchSettings {
  /** SEARCH_CORPUS_FILE: the local corpus; absent: the shipped sample. */
  corpusFile?: string;
}

/** Reads the settings once, at cold start. */
export function readDeepResearchSettings(env: Record<string, string | undefined>): DeepResearchSettings {
  const { SEARCH_CORPUS_FILE } = readConfig({ SEARCH_CORPUS_FILE: z.optional(z.string()) }, env);
  return SEARCH_CORPUS_FILE ? { corpusFile: SEARCH_CORPUS_FILE.trim() } : {};
}
