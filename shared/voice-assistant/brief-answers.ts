import type { BriefFacts, CampaignFact, ContentFact, RequirementFact, TaskFact } from './brief-facts';
import { normalizeUtterance, type CallerIntent, type QuestionTopic } from './caller-intent';
import { cutAt } from './speech';
import { spokenCurrency as currency, spokenDate as date, spokenNumber as number } from './spoken-facts';

type Question = Extract<CallerIntent, { kind: 'question' }>;

/** What the brief answers to a question: a statement, or a question back when the words fit several items. */
export interface BriefAnswer {
  text: string;
  /** True when the answer asks which item the caller means. */
  clarifying: boolean;
}

/** Items a spoken list names; the rest are counted (`and 4 more`). */
const MAX_NAMED = 3;
/** Agenda items named in full before the rest are counted: an agenda is short, and the caller asked for all of it. */
const MAX_AGENDA = 6;
/** Longest title spoken, in characters (a title may hold 300). */
const MAX_TITLE = 100;
/** Longest answer, before the writer brings the call back to its point. */
export const MAX_ANSWER = 400;

type Kind = 'campaign' | 'task' | 'requirement' | 'content' | 'channel';
interface Entity {
  kind: Kind;
  tokens: Set<string>;
  answer: (cues: Cues) => string;
  title: string;
}
interface Cues {
  due: boolean;
  owner: boolean;
  cost: boolean;
  count: boolean;
  figures: string[];
}

const STOPWORDS = new Set(
  (
    'a an the of for to and or on in at by with from about is are was were be been being what when where who whom how which why do does ' +
    'did can could would will should shall has have had it this that these those we our us you your i me my they their there any some ' +
    'status due date deadline campaign campaigns task tasks item items tell give doing going performing much many up set one thing ' +
    'please now so yes ok okay again next know want need let get got owner owns owned cost costs estimated'
  ).split(' '),
);
const KIND_CUES: readonly [Kind, RegExp][] = [
  ['task', /\b(?:tasks?|owner|owns|responsible|who is (?:on|doing))\b/],
  ['content', /\b(?:content|drafts?|guides?|articles?|posts?)\b/],
  ['campaign', /\b(?:campaigns?|performing|doing|clicks|impressions|conversions|results|figures|numbers)\b/],
  ['requirement', /\b(?:requirements?|costs?|approval|approved|priority|resources?)\b/],
  ['channel', /\b(?:channels?|share|split)\b/],
];
const TOPIC_OF: Readonly<Record<Kind, QuestionTopic>> = {
  campaign: 'campaigns',
  task: 'tasks',
  requirement: 'requirements',
  content: 'content',
  channel: 'channels',
};
const DUE_CUE = /\b(?:when|due|deadline|date|finished|done|ready)\b/;
const OWNER_CUE = /\b(?:who|owner|owns|responsible)\b/;
const COST_CUE = /\b(?:cost|costs|price|how much)\b/;
const COUNT_CUE = /\b(?:how many|number of|count)\b/;

/**
 * The brief's answer to a question, from its facts only: who is calling,
 * why, the agenda, the participants, an item named in the question (a task's
 * due date or owner, a campaign's status and figures, a requirement's cost,
 * a channel's share), or a topic (budget, channel split, pending tasks,
 * campaigns, requirements, content, lead). A topic the brief holds nothing
 * on is answered plainly as not on record; a question about nothing the
 * brief covers has no answer (undefined).
 */
export function answerFromBrief(facts: BriefFacts, question: Question): BriefAnswer | undefined {
  const text = question.words.join(' ');
  const cues: Cues = {
    due: DUE_CUE.test(text),
    owner: OWNER_CUE.test(text),
    cost: COST_CUE.test(text),
    count: COUNT_CUE.test(text),
    figures: figuresNamed(facts, text),
  };
  const topics = new Set(question.topics);
  const said = (answer: string): BriefAnswer => ({ text: cutAt(answer, MAX_ANSWER), clarifying: false });

  for (const topic of ['identity', 'bot', 'purpose', 'participants', 'agenda'] as const) {
    if (topics.has(topic)) return said(META[topic](facts));
  }
  const listed = [...topics].find((topic): topic is keyof typeof TOPIC => topic in TOPIC);
  const named = cues.count && listed ? undefined : namedEntity(facts, text);
  // One shared word ("content") names a topic the question asks about rather than an item of another kind.
  const byTopicWord = named && listed && named.overlap < 2 && !named.entities.some((entity) => topics.has(TOPIC_OF[entity.kind]));
  if (named && !byTopicWord) {
    if (named.entities.length === 1) return said(named.entities[0]!.answer(cues));
    const titles = named.entities.slice(0, 2).map((entity) => entity.title);
    return { text: cutAt(`Do you mean ${titles.join(', or ')}?`, MAX_ANSWER), clarifying: true };
  }
  // "How is the budget split?" asks for both.
  if (topics.has('budget') && topics.has('channels')) return said(`${TOPIC.budget(facts, cues)} ${TOPIC.channels(facts, cues)}`);
  if (listed) return said(TOPIC[listed](facts, cues));
  if (cues.figures.length > 0) return said(TOPIC.campaigns(facts, cues));
  return undefined;
}

const META: Record<'identity' | 'bot' | 'purpose' | 'participants' | 'agenda', (facts: BriefFacts) => string> = {
  identity: (facts) => (facts.speaker ? `This is ${facts.speaker}.` : `This is the marketing assistant, calling about ${facts.title}.`),
  bot: () => 'I am an automated assistant. I take notes of this call, and a summary goes to the team afterwards.',
  purpose: (facts) => `This call is about ${facts.title}. The objective is: ${sentence(facts.objective)}`,
  participants: (facts) =>
    facts.participants.length > 0
      ? `The participants named for this meeting are ${list(facts.participants)}.`
      : 'No participants were named for this meeting in advance.',
  agenda: (facts) =>
    facts.agenda.length > 0
      ? `The agenda is ${list(facts.agenda.map(title), MAX_AGENDA)}.`
      : facts.points.length > 0
        ? `No agenda was set, so I am following the talking points: ${list(
            facts.points.map((point) => point.topic),
            facts.points.length,
          )}.`
        : 'No agenda was set for this meeting.',
};

const TOPIC: Record<
  'channels' | 'budget' | 'tasks' | 'campaigns' | 'requirements' | 'content' | 'lead',
  (facts: BriefFacts, cues: Cues) => string
> = {
  channels: (facts) =>
    facts.channels.length > 0
      ? `The spend by channel is ${list(
          facts.channels.map((channel) => `${words(channel.name)} ${channel.share}`),
          facts.channels.length,
        )}.`
      : 'I have no channel split on record.',
  budget: (facts) =>
    facts.budget
      ? `The budget on record is ${number(facts.budget.amount)}${facts.budget.currency ? ` ${currency(facts.budget.currency)}` : ''}.`
      : 'I have no budget on record for this meeting.',
  tasks: (facts, cues) => {
    const count = facts.tasks.length;
    if (count === 0) return 'I have no pending tasks on record.';
    const named = facts.tasks.map((task) => (cues.owner && task.owner ? `${title(task.title)}, owned by ${task.owner}` : withDue(task)));
    return `I have ${count} pending ${count === 1 ? 'task' : 'tasks'} on record: ${list(named)}.`;
  },
  campaigns: (facts, cues) => {
    if (facts.campaigns.length === 0) return 'I have no campaign figures on record.';
    const described = facts.campaigns.slice(0, cues.figures.length > 0 ? MAX_NAMED : 2).map((campaign) => describeCampaign(campaign, cues));
    const more = facts.campaigns.length - described.length;
    return `${described.join(' ')}${more > 0 ? ` I have ${more} more ${more === 1 ? 'campaign' : 'campaigns'} on record.` : ''}`;
  },
  requirements: (facts) => {
    const count = facts.requirements.length;
    if (count === 0) return 'I have no open requirements on record.';
    const first = facts.requirements[0]!;
    const rest = count > 1 ? ` The others are ${list(facts.requirements.slice(1).map((item) => title(item.title)))}.` : '';
    return `I have ${count} open ${count === 1 ? 'requirement' : 'requirements'} on record. ${describeRequirement(first, false)}${rest}`;
  },
  content: (facts) =>
    facts.content.length > 0
      ? `Content in the works: ${list(facts.content.map((item) => withDue(item)))}.`
      : 'I have no content in the works on record.',
  lead: (facts) => (facts.lead ? `This meeting concerns the lead ${facts.lead}.` : 'No lead is named for this meeting.'),
};

/** The items the question names by its words (several when they fit equally well), and how many words it shares with them. */
function namedEntity(facts: BriefFacts, text: string): { entities: Entity[]; overlap: number } | undefined {
  const asked = tokens(text);
  if (asked.size === 0) return undefined;
  const cued = new Set(KIND_CUES.filter(([, pattern]) => pattern.test(text)).map(([kind]) => kind));
  const scored = entities(facts)
    .map((entity) => {
      const overlap = [...entity.tokens].filter((token) => asked.has(token)).length;
      return { entity, overlap, score: overlap + (cued.has(entity.kind) ? 0.5 : 0) };
    })
    .filter((candidate) => candidate.overlap > 0)
    .sort((a, b) => b.score - a.score);
  const best = scored[0];
  if (!best) return undefined;
  const tied = scored.filter((candidate) => candidate.score === best.score);
  return { entities: tied.map((candidate) => candidate.entity), overlap: best.overlap };
}

function entities(facts: BriefFacts): Entity[] {
  const entity = (kind: Kind, name: string, answer: (cues: Cues) => string): Entity => ({
    kind,
    title: title(words(name)),
    tokens: tokens(name),
    answer,
  });
  return [
    ...facts.tasks.map((task) => entity('task', task.title, (cues) => describeTask(task, cues))),
    ...facts.campaigns.map((campaign) => entity('campaign', campaign.title, (cues) => describeCampaign(campaign, cues))),
    ...facts.requirements.map((requirement) =>
      entity('requirement', requirement.title, (cues) => describeRequirement(requirement, cues.cost)),
    ),
    ...facts.content.map((item) => entity('content', item.title, (cues) => describeContent(item, cues))),
    ...facts.channels.map((channel) =>
      entity('channel', channel.name, () => `${capitalized(words(channel.name))} has ${channel.share} of the spend by channel.`),
    ),
  ];
}

function describeTask(task: TaskFact, cues: Cues): string {
  const name = title(task.title);
  if (cues.due && !cues.owner) return task.due ? `${name} is due ${date(task.due)}.` : `${name} has no due date on record.`;
  if (cues.owner && !cues.due) return task.owner ? `${name} is owned by ${task.owner}.` : `${name} has no owner on record.`;
  const parts = [task.status && `is ${words(task.status)}`, task.owner && `owned by ${task.owner}`, task.due && `due ${date(task.due)}`];
  return described(name, parts, 'is a pending task, with no status, owner or due date on record');
}

function describeCampaign(campaign: CampaignFact, cues: Cues): string {
  const name = title(campaign.title);
  const named = campaign.figures.filter((figure) => cues.figures.includes(figure.name));
  const figures = (named.length > 0 ? named : campaign.figures).map((figure) => `${words(figure.name)} ${number(figure.value)}`);
  const status = campaign.status ? ` is ${words(campaign.status)}` : '';
  if (figures.length === 0) return `${name}${status || ' is on record'}, with no figures on record.`;
  return `${name}${status}${status ? ', with' : ' has'} ${list(figures, figures.length)}.`;
}

function describeRequirement(requirement: RequirementFact, costAsked: boolean): string {
  const name = title(requirement.title);
  if (costAsked)
    return requirement.cost ? `${name} has an estimated cost of ${number(requirement.cost)}.` : `${name} has no cost estimate on record.`;
  const parts = [
    requirement.status && `is ${words(requirement.status)}`,
    requirement.priority && `priority ${requirement.priority}`,
    requirement.cost && `estimated cost ${number(requirement.cost)}`,
  ];
  return described(name, parts, 'is an open requirement, with no status, priority or cost on record');
}

function describeContent(item: ContentFact, cues: Cues): string {
  const name = title(item.title);
  if (cues.due) return item.due ? `${name} is due ${date(item.due)}.` : `${name} has no due date on record.`;
  return described(name, [item.status && `is ${words(item.status)}`, item.due && `due ${date(item.due)}`], 'is in the works');
}

function described(name: string, parts: readonly (string | undefined)[], otherwise: string): string {
  const kept = parts.filter((part): part is string => Boolean(part));
  return `${name} ${kept.length > 0 ? kept.join(', ') : otherwise}.`;
}

function withDue(item: { title: string; due?: string }): string {
  return `${title(item.title)}${item.due ? `, due ${date(item.due)}` : ''}`;
}

/** The campaign figures (`clicks`, `conversions`) the question names. */
function figuresNamed(facts: BriefFacts, text: string): string[] {
  const asked = tokens(text);
  const names = new Set(facts.campaigns.flatMap((campaign) => campaign.figures.map((figure) => figure.name)));
  return [...names].filter((name) => {
    const parts = [...tokens(name)];
    return parts.length > 0 && parts.every((part) => asked.has(part));
  });
}

/** The words of a text that tell items apart: normalized, without function words, plurals as singular. */
function tokens(text: string): Set<string> {
  return new Set(
    normalizeUtterance(text.replace(/_/g, ' '))
      .split(/[\s.?]+/)
      .filter((word) => (word.length > 1 || /\d/.test(word)) && !STOPWORDS.has(word))
      .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word)),
  );
}

/** `a`, `a and b`, `a, b and c`, `a, b, c and 2 more`. */
function list(items: readonly string[], max = MAX_NAMED): string {
  const named = items.slice(0, max);
  const more = items.length - named.length;
  if (more > 0) return `${named.join(', ')} and ${more} more`;
  if (named.length <= 1) return named.join('');
  return `${named.slice(0, -1).join(', ')} and ${named.at(-1)!}`;
}

function title(text: string): string {
  return cutAt(text.trim(), MAX_TITLE);
}

function words(text: string): string {
  return text.replace(/_/g, ' ');
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function sentence(text: string): string {
  const trimmed = text.trim().replace(/[.;:,]+$/, '');
  return `${capitalized(trimmed)}.`;
}
