import { lazy } from '../platform/memo';

/** Runs of letters, in any script. */
const LETTER_RUNS = lazy(() => new RegExp(String.raw`\p{L}+`, 'gu'));

/**
 * A small, dependency-free language check for generated copy: it counts
 * frequent function words of a few languages. It only ever says "this is
 * clearly another language"; short or ambiguous text passes.
 */
const STOPWORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set('the and you your for with that this are have will our we to of in is it on be can would'.split(' ')),
  es: new Set('el la los las que con para por una uno sus nuestro nuestra usted es en de del y su podemos le'.split(' ')),
  fr: new Set('le la les des que avec pour une vous votre nous notre est et du dans sur pas ce qui'.split(' ')),
  de: new Set('der die das und mit für eine einen sie ihr ihre wir unser ist nicht den dem zu von auf'.split(' ')),
  pt: new Set('o a os as que com para uma você seu sua nosso nossa é e do da em não no na'.split(' ')),
  it: new Set('il lo la gli le che con per una voi vostro nostro è e del della in non di un'.split(' ')),
};

/** Languages the check can recognise, as ISO 639-1 codes. */
export const CHECKED_LANGUAGES = Object.keys(STOPWORDS);

/** Fewer function words than this and the text is too short to judge. */
const MIN_EVIDENCE = 4;

/** "en-US", "EN", "en_GB" → "en"; undefined when not a language tag. */
export function baseLanguage(tag: string | undefined): string | undefined {
  const match = /^([a-z]{2,3})(?:[-_][a-z0-9]+)*$/i.exec(tag?.trim() ?? '');
  return match ? match[1]!.toLowerCase() : undefined;
}

/** The language a text is most likely in, among those checked; undefined when unclear. */
export function detectLanguage(text: string): string | undefined {
  const words = text.toLowerCase().match(LETTER_RUNS()) ?? [];
  const scores = Object.entries(STOPWORDS).map(([language, stopwords]) => ({
    language,
    score: words.filter((word) => stopwords.has(word)).length,
  }));
  scores.sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  if (!best || best.score < MIN_EVIDENCE) return undefined;
  // Related languages share words: demand a clear lead.
  if (second && best.score < second.score * 1.5) return undefined;
  return best.language;
}

/**
 * True unless the text is clearly in a language other than `expected`.
 * Languages the check does not know always pass.
 */
export function isInLanguage(text: string, expected: string | undefined): boolean {
  const language = baseLanguage(expected);
  if (!language || !CHECKED_LANGUAGES.includes(language)) return true;
  const detected = detectLanguage(text);
  return detected === undefined || detected === language;
}
