import { entriesWithin } from '../platform/item-size';
import { cutText } from '../platform/text';

/**
 * How much of a tenant's history of a lead a follow-up reads: the newest
 * entries, at most `maxEntries`, and no more summary text than
 * `maxCharacters` (entries are taken newest first and the window stops at
 * the first that does not fit, so it never skips one). One Query with
 * `Limit: maxEntries` reads it, however long the history grows.
 *
 * Twenty entries cover the events of several sequences (each step's open,
 * click, reply…); 6,000 characters (about 1,500 tokens) hold three summaries
 * of the longest kind, or twenty of a few sentences, and keep the prompt's
 * share of the model's input small and its cost flat.
 */
export const HISTORY_WINDOW = { maxEntries: 20, maxCharacters: 6_000 } as const;

/** Longest summary an entry keeps (a lead event's summary is refused beyond it). */
export const MAX_HISTORY_SUMMARY_LENGTH = 2_000;

/**
 * The leading entries of `newestFirst` that fit {@link HISTORY_WINDOW}: at
 * most `maxEntries`, stopping before the first whose summary would take the
 * total past `maxCharacters`.
 */
export function withinWindow<T extends { summary: string }>(newestFirst: readonly T[]): T[] {
  const kept: T[] = [];
  let characters = 0;
  for (const entry of newestFirst) {
    if (kept.length === HISTORY_WINDOW.maxEntries) break;
    characters += entry.summary.length;
    if (characters > HISTORY_WINDOW.maxCharacters) break;
    kept.push(entry);
  }
  return kept;
}

/**
 * How much of each part of a lead the writers see. The writing context is
 * kept on the command twice (the sales phase's progress, then the result),
 * and the request once, so every part a caller or the site's data can make
 * long is cut here; what is cut was never useful to a short follow-up.
 * Bound: a writing context ≤ 64 KiB, a stored request ≤ 48 KiB, even in
 * three-byte characters (test/unit/item-bounds.test.ts builds both).
 */
export const WRITING_LIMITS = {
  /** A name, company, position, budget range or stage, in characters. */
  textCharacters: 300,
  /** Pain points and product interests: the first this many (without repeats)… */
  listEntries: 10,
  /** …each at most this many characters. */
  entryCharacters: 500,
  /** The lead's preferences: their first entries within this many bytes. */
  preferencesBytes: 4 * 1024,
  /** The sales agent's standing instructions, in characters. */
  instructionsCharacters: 4_000,
  /** Links, e-mail addresses and phone numbers allowed in copy: the first this many of each kind… */
  contactsPerKind: 50,
  /** …each at most this many characters (longer ones are never allowed). */
  contactCharacters: 300,
} as const;

/** The first {@link WRITING_LIMITS.listEntries} values, trimmed and cut, without repeats (case-insensitive) or empties. */
export function firstUnique(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const value of values) {
    if (kept.length === WRITING_LIMITS.listEntries) break;
    const trimmed = cutText(value.trim(), WRITING_LIMITS.entryCharacters).trim();
    const key = trimmed.toLowerCase();
    if (!trimmed || seen.has(key)) continue;
    seen.add(key);
    kept.push(trimmed);
  }
  return kept;
}

/** An interaction as the writers see it. */
export interface InteractionNote {
  date: string;
  type: string;
  summary: string;
}

/**
 * The newest interactions within the history window: without repeats, each
 * summary cut to {@link MAX_HISTORY_SUMMARY_LENGTH}, taken newest first
 * ({@link withinWindow}) and given back oldest first. Among equal dates the
 * order given is kept.
 */
export function newestInteractions<T extends InteractionNote>(all: readonly T[]): T[] {
  const seen = new Set<string>();
  const notes: T[] = [];
  for (const item of all) {
    const note = { ...item, summary: cutText(item.summary, MAX_HISTORY_SUMMARY_LENGTH) };
    const key = `${note.date}|${note.type}|${note.summary}`;
    if (seen.has(key)) continue;
    seen.add(key);
    notes.push(note);
  }
  notes.sort((a, b) => a.date.localeCompare(b.date));
  return withinWindow(notes.reverse()).reverse();
}

/** The first entries of a lead's preferences whose names and values take at most {@link WRITING_LIMITS.preferencesBytes}. */
export function boundedPreferences(preferences: Record<string, unknown>): Record<string, unknown> {
  return entriesWithin(preferences, WRITING_LIMITS.preferencesBytes);
}
