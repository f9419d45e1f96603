import { cleanText } from '../../platform/text';

/*
 * What reading a page needs without an HTML parser: the page's shape, plain
 * text, whitespace and length. Apart from readable-text.ts (linkedom and
 * Readability, hundreds of KiB) so the research worker's main thread, which
 * parses HTML only in its parse worker, does not carry them.
 */

/** A page reduced to what a reader (or a model) needs. */
export interface ReadablePage {
  title?: string;
  text: string;
}

/** A plain-text page, with whitespace collapsed and the length capped. */
export function readablePlainText(text: string, maxChars: number): ReadablePage {
  return { text: capText(collapseWhitespace(text), maxChars) };
}

/**
 * Whitespace collapsed: spaces and tabs within a line become one space,
 * lines are trimmed, empty lines dropped; control and bidi characters removed.
 */
export function collapseWhitespace(text: string): string {
  return cleanText(text)
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/** The text cut to at most `maxChars`, at the last word boundary, with an ellipsis when cut. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, Math.max(0, maxChars - 1));
  const boundary = cut.search(/\s\S*$/);
  return `${(boundary > maxChars / 2 ? cut.slice(0, boundary) : cut).trimEnd()}…`;
}
