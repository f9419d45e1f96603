import type { GeneratedBy } from '../providers/llm/port';
import { NO_CONTACTS } from './allowed-contacts';
import type { WritingContext } from './context';
import { baseLanguage } from './language';
import type { CopyRules } from './message-checks';
import { OFFLINE_LANGUAGES } from './offline-writer';

/**
 * The rules generated copy is held to. A model must write in the lead's
 * language; the offline writer only in the languages it has (its result is
 * labelled offline, so English copy for another language is never mistaken
 * for a model's). Either may use only the links, e-mail addresses and phone
 * numbers of the stored site and lead.
 */
export function copyRulesFor(context: WritingContext, generatedBy: GeneratedBy): CopyRules {
  // A context kept in progress before allowed contacts were recorded allows none.
  const allowedContacts = context.allowed_contacts ?? NO_CONTACTS;
  const language = baseLanguage(context.lead.language ?? undefined);
  if (generatedBy === 'offline' && language && !OFFLINE_LANGUAGES.includes(language)) return { language: null, allowedContacts };
  return { language: context.lead.language, allowedContacts };
}
