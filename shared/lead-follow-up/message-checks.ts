import type { IssueDetail } from '../platform/errors';
import { unsafeCharactersIn } from '../platform/text';
import { foreignContacts, type AllowedContacts } from './allowed-contacts';
import { CHANNEL_LIMITS, type Channel } from './channels';
import { isInLanguage } from './language';
import { findPlaceholders } from './placeholders';

/** One channel's copy: what the lead reads (title, message) and why it was written so (strategy). */
export interface ChannelMessage {
  title: string;
  message: string;
  strategy: string;
}

export type ChannelMessages = Partial<Record<Channel, ChannelMessage>>;

/** A defect found in generated copy, in the shape of the error envelope's details. */
export type ContentProblem = IssueDetail;

/** What copy is checked against. */
export interface CopyRules {
  /** The lead's language, when known; copy clearly in another language fails. */
  language?: string | null;
  /**
   * The links, e-mail addresses and phone numbers copy may carry; any other
   * fails. Without it (checks of copy outside a lead follow-up) contacts are
   * not checked.
   */
  allowedContacts?: AllowedContacts;
}

const MARKUP_PATTERNS: readonly RegExp[] = [/\*\*[^*\n]+\*\*/, /`/, /^\s{0,3}#{1,6}\s/m, /^\s{0,3}>\s/m];

/**
 * Longest piece of copy read at all: far beyond any answer the token limits
 * allow, so only a runaway or hostile answer is refused for it, before any
 * pattern runs over it.
 */
export const MAX_COPY_LENGTH = 20_000;

/** Most foreign contacts named in one problem. */
const MAX_NAMED_CONTACTS = 5;
const MAX_CONTACT_LENGTH = 80;

/**
 * Problems of one piece of copy that is sent to the lead: far too long (then
 * nothing else is read), empty, control or bidi characters, placeholders,
 * markup, language, contacts not in the stored data.
 */
export function copyProblems(text: string, path: string[], rules: CopyRules): ContentProblem[] {
  if (text.length > MAX_COPY_LENGTH) return lengthProblems(text, MAX_COPY_LENGTH, path);
  if (text.trim() === '') return [{ code: 'empty', message: 'is empty', path }];
  const problems: ContentProblem[] = [];
  const unsafe = unsafeCharactersIn(text);
  if (unsafe.length > 0) {
    problems.push({
      code: 'control_character',
      message: `contains control or bidirectional formatting characters (${unsafe.slice(0, 5).join(', ')}); remove them`,
      path,
    });
  }
  const placeholders = findPlaceholders(text);
  if (placeholders.length > 0) {
    problems.push({ code: 'placeholder', message: `contains placeholders or filler: ${placeholders.slice(0, 3).join(', ')}`, path });
  }
  if (MARKUP_PATTERNS.some((pattern) => pattern.test(text))) {
    problems.push({ code: 'markup', message: 'contains Markdown or HTML markup; write plain text', path });
  }
  if (rules.language && !isInLanguage(text, rules.language)) {
    problems.push({ code: 'language', message: `is not written in the lead's language (${rules.language})`, path });
  }
  if (rules.allowedContacts) problems.push(...contactProblems(text, path, rules.allowedContacts));
  return problems;
}

/** A problem when copy carries a link, e-mail address or phone number that is not in the site's or the lead's stored data. */
export function contactProblems(text: string, path: string[], allowed: AllowedContacts): ContentProblem[] {
  const foreign = foreignContacts(text, allowed);
  if (foreign.length === 0) return [];
  const named = [...new Set(foreign.map((contact) => `${contact.kind} ${shorten(contact.text)}`))];
  const more = named.length > MAX_NAMED_CONTACTS ? ` and ${named.length - MAX_NAMED_CONTACTS} more` : '';
  return [
    {
      code: 'contact_not_allowed',
      message:
        `contains links or contact details that are not in the site's or the lead's data: ${named.slice(0, MAX_NAMED_CONTACTS).join(', ')}${more}; ` +
        "remove them (only the site's own URL and contacts from the stored data may appear)",
      path,
    },
  ];
}

function shorten(value: string): string {
  return value.length > MAX_CONTACT_LENGTH ? `${value.slice(0, MAX_CONTACT_LENGTH - 1)}…` : value;
}

/** Problems when a text is longer than its limit. */
export function lengthProblems(text: string, limit: number | undefined, path: string[]): ContentProblem[] {
  return limit !== undefined && text.length > limit
    ? [{ code: 'too_long', message: `is ${text.length} characters; at most ${limit} allowed`, path }]
    : [];
}

/**
 * Output checks of channel messages: exactly the expected channels, each
 * with a non-empty title, message and strategy, within the channel's
 * limits, in the lead's language, with nothing left to fill in.
 */
export function checkChannelMessages(messages: ChannelMessages, channels: readonly Channel[], rules: CopyRules): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const channel of channels) {
    const item = messages[channel];
    if (!item) {
      problems.push({ code: 'missing', message: 'channel is missing', path: [channel] });
      continue;
    }
    const limits = CHANNEL_LIMITS[channel];
    problems.push(
      ...copyProblems(item.title, [channel, 'title'], rules),
      ...lengthProblems(item.title, limits.title, [channel, 'title']),
      ...copyProblems(item.message, [channel, 'message'], rules),
      ...lengthProblems(item.message, limits.message, [channel, 'message']),
    );
    if (item.strategy.trim() === '') problems.push({ code: 'empty', message: 'is empty', path: [channel, 'strategy'] });
  }
  for (const channel of Object.keys(messages)) {
    if (!channels.includes(channel as Channel)) {
      problems.push({ code: 'unexpected', message: 'channel is not available for this lead', path: [channel] });
    }
  }
  return problems;
}

/** One-line summary of problems, for logs and error messages. */
export function describeProblems(problems: readonly ContentProblem[], max = 5): string {
  const shown = problems
    .slice(0, max)
    .map((problem) => (problem.path.length ? `${problem.path.join('.')}: ${problem.message}` : problem.message));
  const more = problems.length > max ? ` (and ${problems.length - max} more)` : '';
  return `${shown.join('; ')}${more}`;
}
