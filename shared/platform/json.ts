/** Why a text is not an acceptable JSON document. */
export class JsonDocumentError extends Error {
  constructor(
    message: string,
    readonly reason: 'syntax' | 'too_deep',
  ) {
    super(message);
    this.name = 'JsonDocumentError';
  }
}

/**
 * How deeply objects and arrays nest in a JSON text, found in one pass
 * without recursion (brackets inside strings do not count). Stops counting
 * once `limit` is passed, so a hostile text costs at most one scan.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index += 1;
      else if (code === 0x22 /* " */) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) depth -= 1;
  }
  return false;
}

/**
 * Parses a JSON text after checking that it nests at most `maxDepth`
 * levels, so nothing downstream (validation, hashing, storage) can recurse
 * until the stack overflows.
 */
export function parseJsonDocument(text: string, maxDepth: number): unknown {
  if (jsonDepthExceeds(text, maxDepth)) {
    throw new JsonDocumentError(`The JSON document nests deeper than ${maxDepth} levels.`, 'too_deep');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new JsonDocumentError('The text is not valid JSON.', 'syntax');
  }
}
