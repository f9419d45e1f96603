import { cleanText, WORD_RUNS } from '../platform/text';
import { lazy } from '../platform/memo';

/** What a question asks about, as far as its words tell without the brief. */
export type QuestionTopic =
  | 'next'
  | 'agenda'
  | 'identity'
  | 'bot'
  | 'purpose'
  | 'participants'
  | 'channels'
  | 'budget'
  | 'tasks'
  | 'campaigns'
  | 'requirements'
  | 'content'
  | 'lead';

/** What the caller's words ask of the assistant. */
export type CallerIntent =
  | { kind: 'unclear' | 'repeat' | 'goodbye' | 'not_now' | 'hear_check' | 'hold' | 'greeting' | 'dont_know' | 'next' | 'statement' }
  | { kind: 'yes' | 'no'; short: boolean }
  | {
      kind: 'question';
      /** True when the words were punctuated or opened as a question; false when only an auxiliary verb opens them. */
      strong: boolean;
      /** The question's words, normalized. */
      words: string[];
      /** The topics its words name, most specific first. */
      topics: QuestionTopic[];
    };

/** Characters of an utterance read: a question is asked within them (the relay keeps up to 2,000). */
const MAX_READ = 600;
/** Words of an utterance that is only an answer (`yes`, `no`, `not sure`, `hi there`) rather than a statement. */
const SHORT_ANSWER_WORDS = 6;
/** Words within which `busy`, `not now` or `call me later` ask to end the call, rather than tell of something else. */
const NOT_NOW_WORDS = 12;

const CONTRACTIONS: Readonly<Record<string, string>> = {
  whats: 'what is',
  wheres: 'where is',
  whens: 'when is',
  whos: 'who is',
  hows: 'how is',
  thats: 'that is',
  its: 'it is',
  im: 'i am',
  dont: 'do not',
  doesnt: 'does not',
  didnt: 'did not',
  cant: 'can not',
  cannot: 'can not',
  wont: 'will not',
  isnt: 'is not',
  arent: 'are not',
  lets: 'let us',
  youre: 'you are',
  whatre: 'what are',
  gonna: 'going to',
  wanna: 'want to',
};

/** What an utterance keeps of its characters: letters, digits, `?`, `.`, white space and `-` (the rest become spaces). */
const NOT_SPOKEN = lazy(() => new RegExp(String.raw`[^\p{L}\p{N}?.\s-]+`, 'gu'));
/** A hyphen between two letters (`follow-up`), read as a space. */
const HYPHENATED = lazy(() => new RegExp(String.raw`(\p{L})-(\p{L})`, 'gu'));
/** A letter or a digit: a sentence without one holds no words. */
const HAS_WORD = lazy(() => new RegExp(String.raw`[\p{L}\p{N}]`, 'u'));
const FILLERS = /\b(?:um+|uh+|erm?|ah+|hmm+|mm+|you know|i mean|like i said|kind of|sort of|basically|actually)\b/g;
const LEADING_WORDS = new Set([
  'yes',
  'yeah',
  'ok',
  'okay',
  'so',
  'and',
  'but',
  'well',
  'sure',
  'right',
  'alright',
  'also',
  'then',
  'sorry',
  'hey',
  'hi',
  'hello',
  'great',
  'thanks',
  'fine',
  'good',
  'now',
  'oh',
  'please',
]);
const STRONG_OPENER =
  /^(?:what|when|where|who|whom|whose|why|how|which|tell me|remind me|give me|let me know|i (?:want|would like|d like) to know|i wonder)\b/;
const WEAK_OPENER = /^(?:is|are|was|were|do|does|did|can|could|would|will|should|shall|have|has|any)\b/;
/** `what we decided …`: a wh-word then a subject, with no auxiliary, opens a statement. */
const RELATIVE_CLAUSE = /^(?:what|when|where|how|why) (?:we|i|they|he|she|you|it)\b/;

const REPEAT =
  /\b(?:repeat|say (?:that|it) again|come again|pardon|once more|what did you (?:just )?say|did not (?:catch|hear|get) (?:that|it|you)|could not (?:hear|understand) you)\b|^(?:sorry )?what$/;
const GOODBYE = /\b(?:good ?bye|bye|that is all|hang up|end (?:the|this) call|nothing else|no more questions)\b/;
const NOT_NOW =
  /\b(?:not (?:a )?(?:good|great) time|bad time|not now|call (?:me |us )?(?:back )?(?:later|another time|tomorrow)|(?:i am|we are) (?:a bit |really |very )?busy|can not talk|i am in a meeting)\b/;
const HEAR_CHECK = /\b(?:can you hear me|are you (?:still )?there|you still there|is anyone there|anybody there)\b/;
const HOLD =
  /\b(?:hold on|hang on|one (?:moment|second|sec|minute)|just a (?:moment|second|sec|minute)|wait a (?:moment|second|sec|minute)|give me a (?:moment|second|sec|minute)|bear with me)\b|^wait$/;
const GREETINGS = new Set(['hi', 'hello', 'hey', 'hiya', 'morning', 'afternoon', 'evening']);
const GREETING_WORDS = new Set([...GREETINGS, 'there', 'again', 'everyone', 'all', 'good']);
const DONT_KNOW = /\b(?:do not know|not sure|no idea|no comment|no opinion|can not say|hard to say|no view)\b|^pass$/;
const NEXT =
  /\b(?:what is next|what comes next|next (?:item|topic|point|one|question)|move on|moving on|let us continue|skip (?:it|this|that)|go on)\b|^(?:next|continue|skip)$/;
const YES =
  /^(?:yes|yeah|yep|yup|yea|sure|ok|okay|alright|right|correct|exactly|absolutely|definitely|of course|sounds good|go ahead|agreed|i agree|that works|fine|mhm|uh huh|great|perfect|good|certainly|indeed)\b/;
const NO = /^(?:no|nope|nah|not really|i disagree|not at all|negative|i do not agree|not quite)\b/;

const TOPICS: readonly [QuestionTopic, RegExp][] = [
  ['next', /\b(?:what is next|what comes next|next (?:item|topic|point|one))\b|\bmove on\b/],
  [
    'agenda',
    /\b(?:agenda|topics|what are we (?:covering|discussing|talking about|going to (?:cover|discuss))|what is left|what else is (?:there|on))\b/,
  ],
  ['identity', /\b(?:who (?:is this|are you|is calling|is speaking|am i (?:talking|speaking) (?:to|with))|your name|who is on the line)\b/],
  [
    'bot',
    /\b(?:are you (?:a |an )?(?:bot|robot|ai|machine|computer|real|human|person|recording)|is this (?:a |an )?(?:bot|robot|recording|automated|ai|machine)|(?:talking|speaking) to a (?:bot|robot|machine|person|human))\b/,
  ],
  [
    'purpose',
    /\b(?:(?:this|the) (?:call|meeting) about|why are you calling|why (?:did|do) you call|purpose|objective|goal|reason for (?:the|this) call|what is (?:this|it) about)\b/,
  ],
  ['participants', /\b(?:participants?|attendees?|who (?:else )?(?:is|will be) (?:on|joining|in|attending|invited)|who else)\b/],
  ['channels', /\b(?:channels?|split|share|mix|allocation|by channel)\b/],
  ['budget', /\b(?:budget|how much (?:money|do we have|can we spend)|total spend)\b/],
  ['tasks', /\b(?:tasks?|to ?dos?|action items?|open items?|pending|outstanding|backlog)\b/],
  [
    'campaigns',
    /\b(?:campaigns?|performance|performing|metrics?|figures?|numbers|results|impressions|clicks|conversions|ctr|roi|how (?:is|are) (?:it|they|things) (?:doing|going))\b/,
  ],
  ['requirements', /\b(?:requirements?|resources?|needs|requests?|approvals?)\b/],
  ['content', /\b(?:content|opportunit(?:y|ies)|articles?|posts?|blogs?|drafts?|guides?)\b/],
  ['lead', /\b(?:leads?|prospects?)\b/],
];

/**
 * The caller's words, as the intent reader reads them: control characters
 * and markup (`<b>`) gone, lower case, contractions spelled out (`whats`, `what's`:
 * `what is`), filler words (`um`, `you know`) dropped, at most MAX_READ
 * characters; sentences end with `.` or `?`.
 */
export function normalizeUtterance(said: string): string {
  return cleanText(said)
    .slice(0, MAX_READ)
    .toLowerCase()
    .replace(/<[^<>]{0,200}>/g, ' ')
    .replace(/[’‘`´]/g, "'")
    .replace(/'/g, '')
    .replace(/[!;]+/g, '.')
    .replace(NOT_SPOKEN(), ' ')
    .replace(HYPHENATED(), '$1 $2')
    .replace(/(?<!\d)[.-]+|[.-]+(?!\d)/g, (marks) => (marks.includes('.') ? '.' : ' '))
    .replace(WORD_RUNS(), (word) => CONTRACTIONS[word] ?? word)
    .replace(FILLERS, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([.?])/g, '$1')
    .replace(/^[\s.?]+/, '')
    .trim();
}

/**
 * What the caller's last words ask: deterministic, from the words alone (ASR
 * text: any case, punctuation or none, filler words). A question names its
 * topics; whether the brief can answer it is for the writer to tell.
 */
export function readIntent(said: string): CallerIntent {
  const text = normalizeUtterance(said);
  const sentences = text
    .split(/(?<=[.?])\s*/)
    .map((sentence) => ({ asked: sentence.endsWith('?'), words: sentence.replace(/[.?]+$/, '').trim() }))
    .filter((sentence) => HAS_WORD().test(sentence.words));
  if (sentences.length === 0) return { kind: 'unclear' };
  const plain = sentences.map((sentence) => sentence.words).join(' ');
  const words = plain.split(' ');
  const question = questionOf(sentences);

  if (REPEAT.test(plain) && !question?.topics.length) return { kind: 'repeat' };
  if (GOODBYE.test(plain) && !question?.strong) return { kind: 'goodbye' };
  if (words.length <= NOT_NOW_WORDS && NOT_NOW.test(plain)) return { kind: 'not_now' };
  if (HEAR_CHECK.test(plain) && (words.length <= SHORT_ANSWER_WORDS || question?.topics.length === 0)) return { kind: 'hear_check' };
  if (isGreeting(words)) return { kind: 'greeting' };
  if (question?.topics[0] === 'next' || (!question && NEXT.test(plain))) return { kind: 'next' };
  if (question) return question;
  if (words.length <= SHORT_ANSWER_WORDS + 2 && HOLD.test(plain)) return { kind: 'hold' };
  if (words.length <= SHORT_ANSWER_WORDS + 2 && DONT_KNOW.test(plain)) return { kind: 'dont_know' };
  if (YES.test(plain)) return { kind: 'yes', short: words.length <= SHORT_ANSWER_WORDS };
  if (NO.test(plain)) return { kind: 'no', short: words.length <= SHORT_ANSWER_WORDS };
  return { kind: 'statement' };
}

/**
 * The question among the sentences: the last one asked (`?`), else the
 * first or last one opened as a question after any leading `yes`, `so`,
 * `and`… (ASR text often has no punctuation).
 */
function questionOf(sentences: readonly { asked: boolean; words: string }[]): Extract<CallerIntent, { kind: 'question' }> | undefined {
  const asked = sentences.findLast((sentence) => sentence.asked);
  if (asked) return question(asked.words, true);
  for (const sentence of new Set([sentences[0]!, sentences.at(-1)!])) {
    const opened = withoutLeadingWords(sentence.words);
    if (RELATIVE_CLAUSE.test(opened)) continue;
    if (STRONG_OPENER.test(opened)) return question(sentence.words, true);
    if (WEAK_OPENER.test(opened)) return question(sentence.words, false);
  }
  return undefined;
}

function question(words: string, strong: boolean): Extract<CallerIntent, { kind: 'question' }> {
  return {
    kind: 'question',
    strong,
    words: words.split(' '),
    topics: TOPICS.filter(([, pattern]) => pattern.test(words)).map(([topic]) => topic),
  };
}

/** `hi`, `hello there`, `good morning`: a greeting and nothing else. */
function isGreeting(words: readonly string[]): boolean {
  return words.length <= 4 && words.every((word) => GREETING_WORDS.has(word)) && words.some((word) => GREETINGS.has(word));
}

function withoutLeadingWords(sentence: string): string {
  const words = sentence.split(' ');
  let start = 0;
  while (start < words.length - 1 && LEADING_WORDS.has(words[start]!)) start += 1;
  if (words[start] === 'thank' && words[start + 1] === 'you') start += 2;
  return words.slice(start).join(' ');
}
