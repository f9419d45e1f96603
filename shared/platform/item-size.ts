/**
 * The size DynamoDB counts against its 400 KB item limit, in bytes, for an
 * item (or one attribute's value, with {@link valueSize}) as the document
 * client writes it (strings, numbers, booleans, null, lists and
 * maps; undefined values dropped), following the rules AWS documents:
 * attribute names and strings count their UTF-8 bytes; a number about one
 * byte per two significant digits plus one (at most 21); a boolean or null
 * one byte; a list or map 3 bytes plus one byte per element, plus its
 * elements (and, for a map, their names).
 */
export function itemSize(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    size += utf8Bytes(name) + valueSize(value);
  }
  return size;
}

/** DynamoDB's maximum item size: 400 KB, attribute names included. */
export const DYNAMODB_ITEM_LIMIT = 400 * 1024;

/**
 * The first entries of a map (in their order) whose names and values take
 * at most `budget` bytes together; stops at the first that does not fit.
 */
export function entriesWithin(record: Record<string, unknown>, budget: number): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  let used = 0;
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    used += 1 + utf8Bytes(name) + valueSize(value);
    if (used > budget) break;
    kept[name] = value;
  }
  return kept;
}

/**
 * The leading elements of `items` whose values take at most `budget` bytes
 * together (as list elements: {@link valueSize} and one byte each). Stops
 * at the first that does not fit, so what is kept is always a prefix.
 */
export function prefixWithin<T>(items: readonly T[], budget: number): T[] {
  const kept: T[] = [];
  let used = 0;
  for (const item of items) {
    used += 1 + valueSize(item);
    if (used > budget) break;
    kept.push(item);
  }
  return kept;
}

/** The bytes one attribute value counts (its name not included). */
export function valueSize(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8Bytes(value);
  if (typeof value === 'number') return numberSize(value);
  if (Array.isArray(value)) {
    const elements = value.filter((element) => element !== undefined);
    return 3 + elements.reduce<number>((total, element) => total + 1 + valueSize(element), 0);
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([, element]) => element !== undefined);
    return 3 + entries.reduce<number>((total, [name, element]) => total + 1 + utf8Bytes(name) + valueSize(element), 0);
  }
  throw new Error(`No DynamoDB type for a ${typeof value}`);
}

function numberSize(value: number): number {
  const digits = Math.abs(value).toExponential().split('e')[0]!.replace('.', '').replace(/0+$/, '').length || 1;
  return Math.min(21, Math.ceil(digits / 2) + 1);
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
