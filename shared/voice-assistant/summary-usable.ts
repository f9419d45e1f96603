import type { TranscriptEntry } from '../calls/record';
import { lazy } from '../platform/memo';

/** Why a summary is empty when the person called said nothing of substance (the reason it carries instead of content). */
export const NOTHING_USABLE_REASON =
  'Nothing usable was said on the call by the person called (only greetings, filler words or noise), so there is nothing to summarize.';

/**
 * Words that carry no content on their own: fillers, greetings and bare
 * acknowledgements. A turn made only of these (or of no words at all: noise
 * the speech recognizer wrote down as punctuation) gives a summary nothing.
 */
/** Words with their apostrophes (`don't`), in any script. */
const WORDS_WITH_APOSTROPHES = lazy(() => new RegExp(String.raw`[\p{L}\p{N}']+`, 'gu'));

const EMPTY_WORDS: ReadonlySet<string> = new Set([
  'uh',
  'uhm',
  'um',
  'umm',
  'hmm',
  'hm',
  'mm',
  'mhm',
  'ah',
  'er',
  'erm',
  'eh',
  'oh',
  'hello',
  'hi',
  'hey',
  'yes',
  'yeah',
  'yep',
  'no',
  'nope',
  'ok',
  'okay',
  'sure',
  'right',
  'thanks',
  'thank',
  'you',
  'bye',
  'goodbye',
  'sorry',
  'what',
  'pardon',
]);

/**
 * What the person called said that a summary can use: their spoken turns
 * (keypresses aside), trimmed, leaving out those made only of
 * {@link EMPTY_WORDS} or of no words. Empty when the call held only the
 * greeting, noise or filler: the summary is then empty, with
 * {@link NOTHING_USABLE_REASON}, and no model is asked (it could only invent).
 */
export function usableStatements(transcript: readonly TranscriptEntry[]): string[] {
  return transcript
    .filter((entry) => entry.role === 'user' && entry.dtmf === undefined)
    .map((entry) => entry.content.trim())
    .filter((text) => (text.toLowerCase().match(WORDS_WITH_APOSTROPHES()) ?? []).some((word) => !EMPTY_WORDS.has(word.replace(/'/g, ''))));
}
