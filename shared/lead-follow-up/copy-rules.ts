import type { GeneratedBy } from '../providers/llm/port';
import type { WritingContext } from './context';
import { baseLanguage } from './language';
import type { CopyRules } from './message-checks';
import { OFFLINE_LANGUAGES } from './offline-writer';

/**
 * The rules generated copy is held to. A model must write in the lead's
 * language; the offline writer only in the languages it has (its result is
 * labelled offline, so English copy for another language is never mistaken
 * for a model's).
 */
export function copyRulesFor(context: WritingContext, generatedBy: GeneratedBy): CopyRules {
  const language = baseLanguage(context.lead.language ?? undefined);
  if (generatedBy === 'offline' && language && !OFFLINE_LANGUAGES.includes(language)) return { language: null };
  return { language: context.lead.language };
}
