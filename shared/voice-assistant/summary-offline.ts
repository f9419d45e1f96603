import type { TranscriptEntry } from '../calls/record';
import type { WrittenMeetingSummary } from './summary-schema';
import { cutAt } from './speech';
import { usableStatements } from './summary-usable';

type Priority = 'high' | 'medium' | 'low';

const MAX_POINTS = 10;
const MAX_ITEM = 300;
/** Longest title of an action item or requirement (the sentence it comes from, cut at a word). */
const MAX_TITLE = 80;
const DECISION =
  /\b(?:decided|decide|agree[ds]?|agreed|approved?|approves|confirmed?|go ahead|let'?s go with|we will go with|settled on)\b/i;
const ACTION =
  /\b(?:will|'ll|going to|is to|are to|needs? to|should|follow up|send|prepare|draft|schedule|set up|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week|the end of|\d))\b/i;
const REQUIREMENT =
  /\b(?:budget|need(?:s|ed)? (?:a|an|more|another|extra)|require[sd]?|requirement|hire|headcount|tool|licen[cs]e|spend|cost|contractor|agency)\b/i;
const AMOUNT = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`;
const SCALE = String.raw`(?:k|m|thousand|million)`;
const MONEY = new RegExp(
  String.raw`(?:([$€£])\s?(${AMOUNT})(?:\s?(${SCALE})\b)?|\b(${AMOUNT})\s?(${SCALE})?\s?(dollars|euros|pounds|usd|eur|gbp)\b)`,
  'i',
);
/** The currency a sign or word names (a dollar is read as the US dollar). */
const CURRENCIES: Readonly<Record<string, string>> = {
  $: 'USD',
  dollars: 'USD',
  usd: 'USD',
  '€': 'EUR',
  euros: 'EUR',
  eur: 'EUR',
  '£': 'GBP',
  pounds: 'GBP',
  gbp: 'GBP',
};
const SCALES: Readonly<Record<string, number>> = { k: 1_000, thousand: 1_000, m: 1_000_000, million: 1_000_000 };
const HIGH = /\b(?:urgent|asap|as soon as possible|high priority|critical|top priority)\b/i;
const LOW = /\b(?:low priority|nice to have|when (?:there is|we have) time|eventually)\b/i;
const APPROVAL = /\b(?:approv\w*|sign[- ]off|budget)\b/i;
const DUE =
  /\bby\s+((?:\d{4}-\d{2}-\d{2})|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|tomorrow|next week|the end of (?:the )?(?:week|month|quarter)|(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2})\b/i;
const ASSIGNEE = /\b([A-Z][a-z]+(?: [A-Z][a-z]+)?)\s+(?:will|is going to|is to|needs to|should)\b/;
/**
 * A question: it asks, and so neither decides, commits nor requires (it stays a key point). Speech-to-text often drops the
 * question mark, so a sentence opening with a question word is one too; "can you …" and the like ask for a task and are not.
 */
const QUESTION_WORD = /^(?:what|what's|whats|how|why|when|where|who|whose|which)\b/i;
const REQUEST = /^(?:can|could|would|will) you\b/i;
/** Words that start a sentence with a capital but name nobody. */
const NOT_NAMES: ReadonlySet<string> = new Set([
  'We',
  'I',
  'You',
  'They',
  'It',
  'That',
  'This',
  'There',
  'The',
  'Someone',
  'Everyone',
  'Then',
  'So',
  'And',
  'But',
  'Also',
  'Yes',
  'No',
  'Ok',
  'Okay',
]);

/**
 * The deterministic writer of the meeting summary (no model), from what
 * the person called said (their usable statements: greetings, fillers and
 * noise aside): every statement is a key point; sentences that decide or
 * agree are decisions; sentences that commit someone to a task are action
 * items (the sentence as title and description, assignee when a name
 * commits, `by …` as the due date, priority from its words); sentences
 * about budget, spend or resources are requirements (a sum said is the
 * estimated cost, in the currency its sign or word names; approval is
 * needed when a sum, a budget or an approval is mentioned). A question
 * is none of these (what is the budget? asks for no budget). Nothing is
 * invented: an empty section stays empty.
 */
export function offlineMeetingSummary(transcript: readonly TranscriptEntry[], objective: string): WrittenMeetingSummary {
  const said = usableStatements(transcript);
  const sentences = said.flatMap(sentencesOf).filter((sentence) => !isQuestion(sentence));
  const decisions = sentences.filter((sentence) => DECISION.test(sentence));
  const actions = sentences.filter((sentence) => ACTION.test(sentence) && !REQUIREMENT.test(sentence));
  // A decision that mentions a budget is a decision; a sum, or a need that decides nothing, is a requirement.
  const requirements = sentences.filter((sentence) => MONEY.test(sentence) || (REQUIREMENT.test(sentence) && !DECISION.test(sentence)));
  return {
    key_points: said.slice(0, MAX_POINTS).map((text) => `The participant said: ${cutAt(text, MAX_ITEM)}`),
    decisions: decisions.slice(0, MAX_POINTS).map((sentence) => cutAt(sentence, MAX_ITEM)),
    action_items: actions.slice(0, MAX_POINTS).map((sentence) => ({
      title: titleOf(sentence),
      assignee: assigneeOf(sentence),
      due_date: DUE.exec(sentence)?.[1] ?? null,
      priority: priorityOf(sentence),
      description: cutAt(sentence, MAX_ITEM),
    })),
    requirements: requirements.slice(0, MAX_POINTS).map((sentence) => ({
      title: titleOf(sentence),
      description: cutAt(sentence, MAX_ITEM),
      ...amountOf(sentence),
      priority: priorityOf(sentence),
      owner: assigneeOf(sentence),
      needs_approval: MONEY.test(sentence) || APPROVAL.test(sentence),
    })),
    objective_outcome:
      `Objective: ${cutAt(objective, 200)} ` +
      `The participants spoke ${said.length} time${said.length === 1 ? '' : 's'}; ${count(decisions.length, 'decision')}, ${count(actions.length, 'action item')} and ${count(requirements.length, 'requirement')} were noted.`,
  };
}

function isQuestion(sentence: string): boolean {
  return QUESTION_WORD.test(sentence) || (sentence.endsWith('?') && !REQUEST.test(sentence));
}

function titleOf(sentence: string): string {
  return cutAt(sentence.replace(/[.!?]+$/, ''), MAX_TITLE);
}

/** The first sum the sentence says, as a number with its currency; nulls when it says none. */
function amountOf(sentence: string): { estimated_cost: number | null; currency: string | null } {
  const match = MONEY.exec(sentence);
  if (!match) return { estimated_cost: null, currency: null };
  const [, sign, signAmount, signScale, wordAmount, wordScale, word] = match;
  const amount = Number((signAmount ?? wordAmount ?? '').replace(/,/g, ''));
  const scale = SCALES[(signScale ?? wordScale ?? '').toLowerCase()] ?? 1;
  if (!Number.isFinite(amount)) return { estimated_cost: null, currency: null };
  return { estimated_cost: Math.round(amount * scale * 100) / 100, currency: CURRENCIES[(sign ?? word ?? '').toLowerCase()] ?? null };
}

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

function assigneeOf(sentence: string): string | null {
  const name = ASSIGNEE.exec(sentence)?.[1];
  return name && !NOT_NAMES.has(name.split(' ')[0]!) ? name : null;
}

function priorityOf(sentence: string): Priority {
  if (HIGH.test(sentence)) return 'high';
  if (LOW.test(sentence)) return 'low';
  return 'medium';
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}
