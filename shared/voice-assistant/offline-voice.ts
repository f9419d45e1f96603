import type { TranscriptEntry } from '../calls/record';
import { answerFromBrief } from './brief-answers';
import { briefFacts, type BriefFacts } from './brief-facts';
import type { CallBrief } from './call-brief';
import { normalizeUtterance, readIntent, type CallerIntent } from './caller-intent';
import { RELAY_LIMITS } from './limits';
import { cutAt, plainSpeech } from './speech';
import { spokenFacts } from './spoken-facts';

export { openingLine, talkingPoints, type TalkingPoint } from './brief-facts';

/** What the offline writer says, and whether the call should end after it. */
export interface VoiceReply {
  reply: string;
  end_call: boolean;
}

/** Longest detail read aloud from a talking point. */
const MAX_DETAIL = 280;
/** Longest talking point name spoken when the writer brings the call back to it. */
const MAX_TOPIC = 80;
/** How the writer acknowledges what was said before its next step (left out when a line is said again). */
const ACKNOWLEDGEMENTS = {
  first: 'Thank you.',
  next: 'Sure.',
  noted: 'Thank you, I have noted that.',
  open: 'That is fine, I will note it as an open question.',
  agreed: 'Good, I have noted your agreement.',
  objected: 'Understood, I have noted your objection.',
} as const;
const REPEATING = 'Of course.';
/** Most words of a reply to "Do you mean A, or B?" read as naming the item (`the campaign one`); more is an answer. */
const MAX_CLARIFICATION_WORDS = 8;

/**
 * The deterministic writer of the assistant's turns (no model). It reads
 * what the caller's last words ask (caller-intent.ts) and answers from the
 * brief's facts only (brief-answers.ts): who is calling and why, the agenda,
 * the budget, the channel split, the pending tasks and their due dates, a
 * campaign's status and figures, a requirement's cost; a fact the brief
 * lacks is said to be missing, and a question it cannot answer is noted for
 * the follow-up. After an answer it brings the call back to its point.
 * Otherwise it walks the pre-call prompt's talking points in order (an
 * answer, a yes or no, "next" or "I don't know" moves on; a question, a
 * greeting, "repeat that" or "hold on" does not), reading out the site's
 * figures and asking for the caller's view; then it asks for decisions and
 * next steps, and closes. A caller who says goodbye is thanked and the call
 * ends; one who has no time is let go. Replies are plain speech, at most
 * RELAY_LIMITS.maxReplyCharacters, and never repeat the caller's words.
 * The same transcript always gets the same reply.
 */
export function offlineVoiceReply(brief: Pick<CallBrief, 'preCallPrompt' | 'meeting'>, transcript: readonly TranscriptEntry[]): VoiceReply {
  const facts = briefFacts(brief);
  const intents = callerIntents(
    facts,
    transcript.filter((entry) => entry.role === 'user' && entry.dtmf === undefined).map((entry) => entry.content),
  );
  const last = intents.at(-1);
  if (!last) return speak(hello(facts, 0));
  const step = intents.slice(0, -1).filter((intent) => advances(facts, intent)).length;
  const back = pointer(facts, step);

  switch (last.kind) {
    case 'goodbye':
      return closing();
    case 'not_now':
      return letGo();
    case 'no':
      return step === 0 && last.short ? letGo() : scriptStep(facts, step, last);
    case 'yes':
    case 'statement':
    case 'dont_know':
    case 'next':
      return scriptStep(facts, step, last);
    case 'repeat':
      return speak(repeated(transcript) ?? back);
    case 'hold':
      return speak('Of course, take your time.');
    case 'greeting':
      return speak(step === 0 ? hello(facts, step) : `Hello, I am still here. ${back}`);
    case 'hear_check':
      return speak(`Yes, I can hear you. ${back}`);
    case 'unclear':
      return speak(`Sorry, I did not catch that. ${back}`);
    case 'question': {
      const answer = answerFromBrief(facts, last);
      if (answer) return speak(answer.clarifying ? answer.text : `${answer.text} ${back}`);
      if (last.strong)
        return speak(`I am sorry, I do not have that in my notes for this call. I will note the question for the follow-up. ${back}`);
      return scriptStep(facts, step, { kind: 'statement' });
    }
  }
}

/** The line the assistant ends a call with, by the offline writer or at a limit. */
export function closing(reason?: string): VoiceReply {
  const why = reason ? `${reason} ` : '';
  return {
    reply: `${why}Thank you for your time. I will send a summary with the decisions, action items and requirements. Goodbye.`,
    end_call: true,
  };
}

/**
 * What each caller turn asked, in order. A short reply to the writer's
 * "Do you mean A, or B?" (`the campaign`) completes the question it
 * answers, when together they name one item.
 */
function callerIntents(facts: BriefFacts, turns: readonly string[]): CallerIntent[] {
  const read: CallerIntent[] = [];
  for (const said of turns) {
    const intent = readIntent(said);
    const previous = read.at(-1);
    const words = normalizeUtterance(said).split(/[\s.?]+/);
    const reply = words.length <= MAX_CLARIFICATION_WORDS && ['statement', 'yes', 'no'].includes(intent.kind);
    if (previous?.kind === 'question' && reply && answerFromBrief(facts, previous)?.clarifying) {
      const completed: CallerIntent = { ...previous, words: [...previous.words, ...words] };
      const answer = answerFromBrief(facts, completed);
      if (answer && !answer.clarifying) {
        read.push(completed);
        continue;
      }
    }
    read.push(intent);
  }
  return read;
}

/** Whether a caller turn moved the call on to the next step of its script (an answer does; a question it answers does not). */
function advances(facts: BriefFacts, intent: CallerIntent): boolean {
  switch (intent.kind) {
    case 'yes':
    case 'no':
    case 'statement':
    case 'dont_know':
    case 'next':
      return true;
    case 'question':
      return !intent.strong && answerFromBrief(facts, intent) === undefined;
    default:
      return false;
  }
}

/**
 * The script's step `step`: talking point `step`, then the question on
 * decisions and next steps, then the closing; acknowledging what the
 * caller said first.
 */
function scriptStep(facts: BriefFacts, step: number, said: CallerIntent): VoiceReply {
  const acknowledgement = acknowledge(step, said);
  const point = facts.points[step];
  if (point) {
    return speak(
      `${acknowledgement} ${step === 0 ? "Let's start with" : 'Next,'} ${point.topic}: ${spoken(point.detail)} What is your view?`,
    );
  }
  if (step === facts.points.length) {
    return speak(
      `${acknowledgement} That covers our talking points for ${facts.title}. Before we close, which decisions and next steps should I note, with an owner and a date for each?`,
    );
  }
  return closing();
}

function acknowledge(step: number, said: CallerIntent): string {
  if (said.kind === 'next') return ACKNOWLEDGEMENTS.next;
  if (step === 0) return ACKNOWLEDGEMENTS.first;
  if (said.kind === 'dont_know') return ACKNOWLEDGEMENTS.open;
  if (said.kind === 'yes' && said.short) return ACKNOWLEDGEMENTS.agreed;
  if (said.kind === 'no' && said.short) return ACKNOWLEDGEMENTS.objected;
  return ACKNOWLEDGEMENTS.noted;
}

/** Where the call stands, asked again after an answer: the talking point whose view is pending. */
function pointer(facts: BriefFacts, step: number): string {
  const topic = (index: number) => cutAt(facts.points[index]!.topic, MAX_TOPIC);
  if (step === 0) return facts.points.length > 0 ? `Shall we start with ${topic(0)}?` : 'Shall we go through the decisions and next steps?';
  if (step <= facts.points.length) return `Back to ${topic(step - 1)}: what is your view?`;
  return 'Back to the next steps: which decisions and action items should I note?';
}

/** The assistant's greeting back: who calls and why, and where the call starts. */
function hello(facts: BriefFacts, step: number): string {
  return `Hello, this is ${facts.speaker ?? 'the marketing assistant'}, calling about ${facts.title}. ${pointer(facts, step)}`;
}

/** The assistant's last line before the caller's last words, said again (without its acknowledgement). */
function repeated(transcript: readonly TranscriptEntry[]): string | undefined {
  const lastCaller = transcript.findLastIndex((entry) => entry.role === 'user' && entry.dtmf === undefined);
  const line = transcript.slice(0, Math.max(lastCaller, 0)).findLast((entry) => entry.role === 'assistant')?.content;
  const rest = line === undefined ? '' : withoutAcknowledgement(line);
  return rest.length > 0 ? `${REPEATING} ${rest}` : undefined;
}

function withoutAcknowledgement(line: string): string {
  const prefixes = [REPEATING, ...Object.values(ACKNOWLEDGEMENTS)];
  let rest = line.trim();
  for (;;) {
    const prefix = prefixes.find((known) => rest.startsWith(known));
    if (!prefix) return rest;
    rest = rest.slice(prefix.length).trimStart();
  }
}

/** The caller has no time now: end the call politely, without the summary promise of `closing`. */
function letGo(): VoiceReply {
  return { reply: 'No problem, I will let you go. We can pick this up another time. Goodbye.', end_call: true };
}

function speak(reply: string): VoiceReply {
  return { reply: plainSpeech(reply, RELAY_LIMITS.maxReplyCharacters), end_call: false };
}

/**
 * A talking point's detail, as speech: the facts the prompt gives, without
 * its instructions to the assistant (`…; ask the participants…`).
 */
function spoken(detail: string): string {
  const facts = spokenFacts(detail.split(/[;.]\s*(?:ask|discuss)\b/i)[0]!)
    .replace(/_/g, ' ')
    .trim()
    .replace(/[.;:]+$/, '');
  const sentence = facts.length > 0 ? `${facts.charAt(0).toUpperCase()}${facts.slice(1)}.` : '';
  return cutAt(sentence, MAX_DETAIL);
}
