/**
 * Finds the links, e-mail addresses and phone numbers in free text, each
 * with a normalized key for comparison. Every pattern here is linear in the
 * text's length: a pattern starts only at the beginning of a word or of a
 * run of digits (a one-character lookbehind), and its parts match disjoint
 * characters or alternate on different first characters, so the engine
 * never has two ways to read the same run.
 */

export type ContactKind = 'url' | 'email' | 'phone';
import { lazy } from './memo';

/** One contact found in a text. */
export interface FoundContact {
  kind: ContactKind;
  /** As written. */
  text: string;
  /** Where it starts in the text. */
  index: number;
  /** Normalized: host and path for a URL, the lower-cased address, a phone number's digits. */
  key: string;
}

/** Characters that end a word: white space, brackets, quotes, "|", "\", "^", ",", ";" and "…". */
const WORD_END = String.raw`\s<>"'\x60()[\]{}|\\^,;\u2018\u2019\u201C\u201D\u2026`;

/**
 * A word that can hold a link or an address: one with ".", "@" or ":"
 * followed by a letter, digit or "/". Other words never match, and a word
 * is read once, from its start.
 */
const CANDIDATE_WORD = lazy(() => new RegExp(`(?<![^${WORD_END}])[^${WORD_END}]*?[.@:][\\p{L}\\p{N}/][^${WORD_END}]*`, 'gu'));

/** Inside a word without a scheme, an address or a bare link ends at ":", "=", "&", "?", "#", "!" or "*". */
const SEGMENT = /[^:=&?#!*]+/g;
const HAS_SEGMENT_END = /[:=&?#!*]/;

const SCHEME = /^[a-z][a-z0-9+.-]{0,15}:\/\//i;
const WWW = /www\./i;
const EMAIL = lazy(() => new RegExp(String.raw`^([\p{L}\p{N}._%+-]{1,64})@([\p{L}\p{N}.-]{1,253})$`, 'u'));
const LABEL = lazy(() => new RegExp(String.raw`^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$`, 'u'));
const LETTERS_TLD = lazy(() => new RegExp(String.raw`^\p{L}{2,63}$`, 'u'));
const WORD_CHARACTER = lazy(() => new RegExp(String.raw`[\p{L}\p{N}_]`, 'u'));
const NON_DIGITS = /\D/g;
const PATH_START = /[/?#]/;
const QUERY_START = /[?#]/;

/**
 * Digits with the usual separators between them, 7 to 15 digits long: an
 * optional "+" or "(", a digit, then digits or 1 to 3 separators followed
 * by a digit. It starts only where no letter, digit, "_", "+" or "." comes
 * before. A run that goes on past 15 digits is skipped whole (see
 * `endOfDigitRun`).
 */
const PHONE_RUN = lazy(() => new RegExp(String.raw`(?<![\p{L}\p{N}_+.])[+(]?\d(?:\d|[ .()\-\u00A0\u2010-\u2013]{1,3}\d){6,14}`, 'gu'));

const MIN_PHONE_DIGITS = 7;

/**
 * Top-level domains a bare "name.tld" must end in to count as a link,
 * written in lower case. File extensions that are also country codes
 * (md, py, pl, rs, sh, so, is, zip, mov…) are left out so "README.md",
 * "this.is" and "Node.js" read as words.
 */
const LINK_TLDS: ReadonlySet<string> = new Set(
  (
    'com net org edu gov mil int info biz name pro io co ai app dev me us uk de fr es it nl eu ca au nz ch at be se no dk fi ie pt br mx ar cl ' +
    'in jp cn kr ru ua za ng ke tr gr cz sk hu ro bg hr si lt lv ee lu li sg hk tw my id ph th vn ae sa il ' +
    'xyz site online shop store tech cloud ly gg tv fm link page blog news email live life world today space website click bio ' +
    'example'
  ).split(' '),
);

/** Every link, e-mail address and phone number in a text, in order of appearance. */
export function findContacts(text: string): FoundContact[] {
  const words: FoundContact[] = [];
  // A word that comes back (a signature, a repeated link) is read once.
  const read = new Map<string, FoundContact[]>();
  for (const match of text.matchAll(CANDIDATE_WORD())) {
    let contacts = read.get(match[0]);
    if (!contacts) read.set(match[0], (contacts = wordContacts(match[0])));
    for (const contact of contacts) words.push({ ...contact, index: match.index + contact.index });
  }
  const phones: FoundContact[] = [];
  const pattern = new RegExp(PHONE_RUN());
  let word = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const end = match.index + match[0].length;
    const runEnd = endOfDigitRun(text, end);
    if (runEnd > end) {
      pattern.lastIndex = runEnd;
      continue;
    }
    // Digits inside a link or an address ("…/orders/5550199") are part of it.
    while (word < words.length && words[word]!.index + words[word]!.text.length <= match.index) word += 1;
    if (word < words.length && words[word]!.index < end) continue;
    const contact = phoneContact(match[0], match.index, text.charAt(end));
    if (contact) phones.push(contact);
  }
  return phones.length === 0 ? words : [...words, ...phones].sort((a, b) => a.index - b.index);
}

/** The key of a link: host (without "www." or user) and path, lower case, without scheme, port 80/443, query or trailing "/". */
export function urlKey(value: string): string {
  const scheme = SCHEME.exec(value);
  const rest = scheme ? value.slice(scheme[0].length) : value;
  const pathStart = rest.search(PATH_START);
  const authority = pathStart < 0 ? rest : rest.slice(0, pathStart);
  const afterAuthority = pathStart < 0 ? '' : rest.slice(pathStart);
  const queryStart = afterAuthority.search(QUERY_START);
  const path = afterAuthority.startsWith('/') ? (queryStart < 0 ? afterAuthority : afterAuthority.slice(0, queryStart)) : '';
  let host = authority.slice(authority.lastIndexOf('@') + 1).toLowerCase();
  if (host.startsWith('www.')) host = host.slice(4);
  if (host.endsWith(':80') || host.endsWith(':443')) host = host.slice(0, host.lastIndexOf(':'));
  return `${trimTrailing(host, '.')}${trimTrailing(path, '/')}`.toLowerCase();
}

/** The key of an e-mail address: the address in lower case. */
export function emailKey(value: string): string {
  return value.trim().toLowerCase();
}

/** The key of a phone number: its digits. */
export function phoneKey(value: string): string {
  return value.replace(NON_DIGITS, '');
}

/**
 * True when two phone keys name the same number: the same digits, or the
 * same national number with and without a country code or trunk "0" (the
 * shorter, without leading zeros, ends the longer and has 7 digits or more).
 */
export function samePhone(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = [stripLeadingZeros(a), stripLeadingZeros(b)].sort((x, y) => x.length - y.length) as [string, string];
  return short.length >= MIN_PHONE_DIGITS && long.endsWith(short);
}

/** The links and addresses of one word, each `index` counted from the word's start. */
function wordContacts(word: string): FoundContact[] {
  const link = schemeLink(word);
  if (link) return [link];
  const found: FoundContact[] = [];
  const segments = HAS_SEGMENT_END.test(word)
    ? [...word.matchAll(SEGMENT)].map((match) => ({ index: match.index, length: match[0].length }))
    : [{ index: 0, length: word.length }];
  for (const segment of segments) {
    const start = segment.index + leadingPunctuation(word.slice(segment.index, segment.index + segment.length));
    const text = trimTrailingPunctuation(word.slice(start, segment.index + segment.length));
    if (text === '') continue;
    if (text.includes('@')) {
      const email = emailContact(text, start);
      if (email) found.push(email);
    } else if (isBareLink(text)) {
      found.push({ kind: 'url', text, index: start, key: urlKey(text) });
    }
  }
  return found;
}

/** A link with a scheme ("https://…", also when glued to a word before it, as in "see:https://…") or starting "www.". */
function schemeLink(word: string): FoundContact | undefined {
  const start = schemeStart(word) ?? wwwStart(word);
  if (start === undefined) return undefined;
  const text = trimTrailingPunctuation(word.slice(start));
  const key = urlKey(text);
  if (!isWordCharacter(key.charCodeAt(0))) return undefined;
  return { kind: 'url', text, index: start, key };
}

function schemeStart(word: string): number | undefined {
  const separator = word.indexOf('://');
  if (separator <= 0) return undefined;
  let start = separator;
  while (start > 0 && isSchemeCharacter(word.charCodeAt(start - 1))) start -= 1;
  while (start < separator && !isAsciiLetter(word.charCodeAt(start))) start += 1;
  return start < separator && separator - start <= 16 ? start : undefined;
}

function wwwStart(word: string): number | undefined {
  const start = word.search(WWW);
  if (start < 0 || (start > 0 && (isWordCharacter(word.charCodeAt(start - 1)) || '.-'.includes(word.charAt(start - 1))))) return undefined;
  return start;
}

function emailContact(text: string, index: number): FoundContact | undefined {
  const match = EMAIL().exec(text);
  if (!match || !isDomain(match[2]!, false)) return undefined;
  return { kind: 'email', text, index, key: emailKey(text) };
}

/** "example.com", "shop.example.co.uk/pricing": a host whose top-level domain is a known one, then an optional path. */
function isBareLink(text: string): boolean {
  const slash = text.indexOf('/');
  return isDomain(slash < 0 ? text : text.slice(0, slash), true);
}

function isDomain(host: string, knownTld: boolean): boolean {
  if (host.length > 253) return false;
  const lastDot = host.lastIndexOf('.');
  if (lastDot < 0) return false;
  const tld = host.slice(lastDot + 1);
  if (knownTld ? !LINK_TLDS.has(tld) : !LETTERS_TLD().test(tld)) return false;
  return host.split('.').every((label) => label.length <= 63 && LABEL().test(label));
}

/** Where a run of digits and separators that reaches `from` ends: `from` itself unless more digits follow. */
function endOfDigitRun(text: string, from: number): number {
  let end = from;
  for (let at = from; at < text.length;) {
    let separators = 0;
    while (separators < 3 && isPhoneSeparator(text.charCodeAt(at + separators))) separators += 1;
    if (!isDigit(text.charCodeAt(at + separators))) break;
    at += separators + 1;
    end = at;
  }
  return end;
}

function phoneContact(run: string, index: number, next: string): FoundContact | undefined {
  if (next !== '' && WORD_CHARACTER().test(next)) return undefined;
  // A "(" of the surrounding prose, as in "(555 0100 4)", is not part of the number.
  const opensProse = run.startsWith('(') && !run.includes(')');
  const text = opensProse ? run.slice(1) : run;
  const digits = phoneKey(text);
  if (!text.startsWith('+') && looksLikeNumber(text)) return undefined;
  return { kind: 'phone', text, index: opensProse ? index + 1 : index, key: digits };
}

/** Dates, grouped numbers ("1 500 000"), decimals and ranges ("2026-2027", "10.000 - 25.000") are not phone numbers. */
function looksLikeNumber(text: string): boolean {
  if (/^\d{4}[-.]\d{1,2}[-.]\d{1,2}$/.test(text) || /^\d{1,2}[-.]\d{1,2}[-.]\d{4}$/.test(text)) return true;
  if (isPlainNumber(text) || /^\d+\.\d+$/.test(text)) return true;
  const parts = text.split(/ ?[-\u2010-\u2013] ?/);
  if (parts.length !== 2 || !parts.every(isPlainNumber)) return false;
  const [low, high] = parts.map((part) => Number(phoneKey(part))) as [number, number];
  return low < high;
}

/** "1500", "1 500 000", "25.000": no leading zero, at most six digits or groups of three. */
function isPlainNumber(text: string): boolean {
  return /^[1-9]\d{0,5}$/.test(text) || /^[1-9]\d{0,2}(?:([ .\u00A0])\d{3})(?:\1\d{3})*$/.test(text);
}

/** The separators of PHONE_RUN: space, ".", "(", ")", "-", no-break space, hyphens and the en dash. */
function isPhoneSeparator(code: number): boolean {
  return code === 32 || code === 46 || code === 40 || code === 41 || code === 45 || code === 0xa0 || (code >= 0x2010 && code <= 0x2013);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Letters and digits (any script: every character from U+0080 counts) and "_". */
function isWordCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || isAsciiLetter(code) || code === 95 || code >= 128;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isSchemeCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || isAsciiLetter(code) || code === 43 || code === 45 || code === 46;
}

function leadingPunctuation(segment: string): number {
  let start = 0;
  while (start < segment.length && (!isWordCharacter(segment.charCodeAt(start)) || segment.charAt(start) === '_')) start += 1;
  return start;
}

function trimTrailingPunctuation(word: string): string {
  let end = word.length;
  while (end > 0 && '.!?:*~-_='.includes(word.charAt(end - 1))) end -= 1;
  return word.slice(0, end);
}

function trimTrailing(value: string, char: string): string {
  let end = value.length;
  while (end > 0 && value.charAt(end - 1) === char) end -= 1;
  return value.slice(0, end);
}

function stripLeadingZeros(digits: string): string {
  let start = 0;
  while (start < digits.length && digits.charAt(start) === '0') start += 1;
  return digits.slice(start);
}
