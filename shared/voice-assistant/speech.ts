import { cleanText, wordRunsOf } from '../platform/text';

const LINK = /\[([^\]]*)\]\([^)]*\)/g;
const HEADING_OR_BULLET = /^\s*(?:#{1,6}\s+|[-*•]\s+|\d{1,3}[.)]\s+|>\s*)/gm;
const MARKS = /[*_`~#|[\]{}<>\\]/g;
const SPACES = /\s+/g;
const SPACE_BEFORE_PUNCTUATION = / ([,.;:!?])/g;

/**
 * Text as it is spoken on a call: no Markdown (links keep their words,
 * headings, bullets and emphasis marks go), no control characters, one
 * line, at most `max` characters, cut after the last whole sentence that
 * fits (else at a word). Idempotent.
 */
export function plainSpeech(text: string, max: number): string {
  // Dropping a mark can uncover another (`-> x` leaves the bullet `- x`): passes until nothing changes, a few at most.
  let plain = cleanText(text);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = withoutMarkup(plain);
    if (next === plain) break;
    plain = next;
  }
  return cutAt(plain, max);
}

/** Most passes plainSpeech makes: each can only uncover marks at the start of what is left. */
const MAX_PASSES = 8;

function withoutMarkup(text: string): string {
  return text
    .replace(LINK, '$1')
    .replace(HEADING_OR_BULLET, ' ')
    .replace(MARKS, ' ')
    .replace(SPACES, ' ')
    .replace(SPACE_BEFORE_PUNCTUATION, '$1')
    .trim();
}

/** `text` cut to at most `max` characters: after its last full sentence that fits, else at its last word that fits. */
export function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const sentenceEnd = Math.max(head.lastIndexOf('. '), head.lastIndexOf('? '), head.lastIndexOf('! '));
  if (sentenceEnd > max / 3) return head.slice(0, sentenceEnd + 1).trim();
  const space = head.lastIndexOf(' ');
  return (space > max / 3 ? head.slice(0, space) : head).trim();
}

/** Whether `text` begins with the words of `prefix` (letters and digits compared, case and punctuation aside). */
export function startsWithWords(text: string, prefix: string): boolean {
  const words = (value: string) => wordRunsOf(value.toLowerCase());
  const head = words(prefix);
  const body = words(text);
  return head.every((word, index) => (index === head.length - 1 ? (body[index] ?? '').startsWith(word) : body[index] === word));
}
