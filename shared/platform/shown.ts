/** Longest caller-given id an error message repeats in full. */
export const MAX_SHOWN_ID_LENGTH = 100;
import { lazy } from './memo';

/** How much of a longer id is kept, before the ellipsis. */
const SHOWN_ID_PREFIX_LENGTH = 20;

const INVISIBLE = lazy(() => new RegExp(String.raw`[\p{Cc}\p{Cf}]`, 'gu'));

/**
 * A caller-given id as an error message may repeat it: control and format
 * characters (newlines, bidi overrides) removed, and an id longer than
 * {@link MAX_SHOWN_ID_LENGTH} characters cut to its first
 * {@link SHOWN_ID_PREFIX_LENGTH} followed by `…`, so an answer never
 * echoes a caller's megabyte back, nor lets it forge lines in a log.
 */
export function shownId(value: string): string {
  const characters = Array.from(value.replace(INVISIBLE(), ''));
  if (characters.length <= MAX_SHOWN_ID_LENGTH) return characters.join('');
  return `${characters.slice(0, SHOWN_ID_PREFIX_LENGTH).join('')}…`;
}
