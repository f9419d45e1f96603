import * as z from 'zod/mini';
import { lazy, memoize } from './memo';
import { cleanText } from './text';
import './zod-messages';

/** Room a value may take before it is cleaned and trimmed: surrounding spaces, stray control characters. */
export const RAW_SLACK = 1_024;

/**
 * A free-text request field: cleaned of control and bidi characters (it may
 * reach prompts and generated copy), trimmed, and at most `max` characters.
 * Length is checked first, loosely on the raw value and exactly once it is
 * cleaned; both checks abort, so no later step or check of the field ever
 * reads over-long input. A zod/mini schema (in a schema of either flavour:
 * wrap it with `z.optional(…)`, add checks with `.check(…)`).
 */
export function cleanedText(max: number) {
  const [loose, exact] = lengthChecks(max);
  // One `check` of three, not four chained calls: each call clones the schema, and request schemas are built at cold start.
  return z.string().check(loose, cleaning(), exact);
}

/**
 * The checks text fields share, each built once: a check keeps no state of the schema it is attached to, and a request
 * schema's cold start builds dozens of text fields, many with the same limit.
 */
const cleaning = lazy(() => z.overwrite((value: string) => cleanText(value).trim()));
const lengthChecks = memoize(
  (max: number) => {
    const tooBig = { abort: true, message: `Too big: expected string to have <=${max} characters` };
    return [z.maxLength(max + RAW_SLACK, tooBig), z.maxLength(max, tooBig)] as const;
  },
  (max) => String(max),
);
