/** A comment of a TypeScript or JavaScript source, with where it starts. */
export interface SourceComment {
  /** Offset of its first character (`/`). */
  pos: number;
  /** The comment with its delimiters (`// …` without the line break, `/* … *\/`). */
  text: string;
}

/** Words after which a `/` starts a regular expression, not a division. */
const REGEX_AFTER_WORDS = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/**
 * Every comment of a source, found by a small lexer that knows strings,
 * template literals (with nested `${…}`), regular expressions and comments,
 * and nothing else: parsing every file with the TypeScript compiler to read
 * its comments took most of a test's time. A `/` starts a regular expression
 * unless it follows something an expression ends with (a name or number that
 * is not a keyword such as `return`, `)` or `]`), which is how JavaScript's
 * grammar tells them apart in code written the usual way.
 */
export function sourceComments(text: string): SourceComment[] {
  const comments: SourceComment[] = [];
  /** One entry per open `{`: true when it opened a template's `${`. */
  const braces: boolean[] = [];
  let i = text.startsWith('#!') ? text.indexOf('\n') + 1 || text.length : 0;
  let slashIsDivision = false;

  const skipQuoted = (quote: string) => {
    for (i += 1; i < text.length && text[i] !== quote && text[i] !== '\n'; i += 1) if (text[i] === '\\') i += 1;
    i += 1;
  };
  /** From just after a backtick or a template's closing `}`: to the closing backtick, or into a `${`. */
  const skipTemplate = () => {
    for (; i < text.length; i += 1) {
      if (text[i] === '\\') i += 1;
      else if (text[i] === '`') {
        i += 1;
        return;
      } else if (text[i] === '$' && text[i + 1] === '{') {
        braces.push(true);
        i += 2;
        return;
      }
    }
  };
  const skipRegex = () => {
    let inClass = false;
    for (i += 1; i < text.length && text[i] !== '\n'; i += 1) {
      const char = text[i];
      if (char === '\\') i += 1;
      else if (char === '[') inClass = true;
      else if (char === ']') inClass = false;
      else if (char === '/' && !inClass) break;
    }
    for (i += 1; i < text.length && isWordChar(text[i]!); i += 1);
  };

  while (i < text.length) {
    const char = text[i]!;
    const next = text[i + 1];
    if (char === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : text[end - 1] === '\r' ? end - 1 : end;
      comments.push({ pos: i, text: text.slice(i, stop) });
      i = stop;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      comments.push({ pos: i, text: text.slice(i, stop) });
      i = stop;
      continue;
    }
    if (char === ' ' || char === '\n' || char === '\t' || char === '\r') {
      i += 1;
      continue;
    }
    if (char === '"' || char === "'") {
      skipQuoted(char);
      slashIsDivision = true;
    } else if (char === '`') {
      i += 1;
      skipTemplate();
      slashIsDivision = true;
    } else if (char === '/') {
      if (slashIsDivision) i += 1;
      else skipRegex();
      slashIsDivision = !slashIsDivision;
    } else if (isWordChar(char)) {
      const start = i;
      while (i < text.length && isWordChar(text[i]!)) i += 1;
      slashIsDivision = !REGEX_AFTER_WORDS.has(text.slice(start, i));
    } else if (char === '{') {
      braces.push(false);
      i += 1;
      slashIsDivision = false;
    } else if (char === '}') {
      i += 1;
      if (braces.pop()) {
        skipTemplate();
        slashIsDivision = true;
      } else slashIsDivision = false;
    } else {
      i += 1;
      slashIsDivision = char === ')' || char === ']';
    }
  }
  return comments;
}

/** A character of a name or a number (ASCII at once, other letters by their Unicode class). */
function isWordChar(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code < 128)
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
  return /[\p{L}\p{N}]/u.test(char);
}
