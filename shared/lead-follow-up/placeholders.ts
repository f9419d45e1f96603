/**
 * Generated copy is sent as it is, so anything left to fill in is a defect:
 * template variables, bracketed slots, filler text. Each pattern is linear:
 * an open bracket's scan stops at the next bracket of its kind (so scans
 * never overlap), and no two adjacent quantifiers can match the same
 * characters.
 */
const PLACEHOLDER_PATTERNS: readonly RegExp[] = [
  /\{\{[^{}]*\}\}/g, // {{first_name}}
  /\$\{[^{}]*\}/g, // ${name}
  /\{[^{}\n]{0,60}\}/g, // {first_name}, {}
  /\[[^[\]\n]{0,60}\]/g, // [Name], [Your Company]
  /<\s*(?:\/\s*)?[A-Za-z_][^<>\n]{0,60}>/g, // <company>, <br>
  /%(?:[sd]|\([a-z_]+\)s)\b/g, // %s, %(name)s
  /(?<![A-Za-z])(?:X{3,}|x{3,})(?![A-Za-z])/g, // XXX, xxxx
  /\blorem\b|\bipsum\b/gi, // Lorem ipsum
  /_{3,}/g, // ____
  /\b(?:TBD|TODO|FIXME|INSERT\s+[A-Z]+)\b/g, // TBD, INSERT NAME
];

/** The placeholder-like fragments of a text, in order of appearance; empty when the text is ready to send. */
export function findPlaceholders(text: string): string[] {
  const found: { index: number; match: string }[] = [];
  for (const pattern of PLACEHOLDER_PATTERNS) {
    for (const match of text.matchAll(pattern)) found.push({ index: match.index, match: match[0] });
  }
  found.sort((a, b) => a.index - b.index);
  const unique: string[] = [];
  let coveredUntil = -1;
  for (const { index, match } of found) {
    if (index < coveredUntil) continue;
    unique.push(match);
    coveredUntil = index + match.length;
  }
  return unique;
}

export function hasPlaceholders(text: string): boolean {
  return findPlaceholders(text).length > 0;
}

/**
 * Removes the characters that would read as a slot or markup when a value
 * supplied by a lead (a name, a summary) is put into generated copy.
 */
export function sanitizeValue(value: string): string {
  return value
    .replace(/[[\]{}<>]/g, ' ')
    .replace(/(?<![A-Za-z])(?:X{3,}|x{3,})(?![A-Za-z])/g, ' ')
    .replace(/_{3,}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
