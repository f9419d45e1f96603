import type { CallBrief } from './call-brief';

/** One talking point of the pre-call prompt: its name and what the prompt says about it. */
export interface TalkingPoint {
  topic: string;
  detail: string;
}

/** A campaign of the brief: its title, status and figures (`clicks 3180`), as the prompt names them. */
export interface CampaignFact {
  title: string;
  status?: string;
  figures: { name: string; value: string }[];
}

/** A pending task of the brief. */
export interface TaskFact {
  title: string;
  status?: string;
  owner?: string;
  due?: string;
}

/** An open requirement of the brief. */
export interface RequirementFact {
  title: string;
  status?: string;
  priority?: string;
  cost?: string;
}

/** A content item in the works. */
export interface ContentFact {
  title: string;
  status?: string;
  due?: string;
}

/**
 * What the offline writer knows for a call: the facts its pre-call prompt
 * states, read back from the prompt's text (the assistant speaks only from
 * the prompt, as a model would). A fact the prompt does not state is absent
 * (an empty list, or undefined), never guessed.
 */
export interface BriefFacts {
  title: string;
  objective: string;
  agenda: string[];
  participants: string[];
  /** Who the assistant is, as its opening line says ("Morgan (CMO), the marketing assistant of …"). */
  speaker?: string;
  openingLine?: string;
  points: TalkingPoint[];
  campaigns: CampaignFact[];
  channels: { name: string; share: string }[];
  content: ContentFact[];
  lead?: string;
  budget?: { amount: string; currency?: string };
  requirements: RequirementFact[];
  tasks: TaskFact[];
}

const TALKING_POINTS_HEADING = /^Cover these talking points/i;
const OPENING_LINE = /^Opening line:\s*(.+)$/m;
const SPEAKER = /^Hello, this is (.+?), calling about /;
const AGENDA_ITEM = /^\d{1,3}\.\s+(.+)$/;
const TASKS_HEADING = /^Pending tasks of the site/i;
const CHANNELS = /^the current spend by channel is (.+?); ask\b/i;
const BUDGET = /^the budget on record is (.+?); discuss\b/i;
const IN_THE_WORKS = /^content and leads in the works: (.+?)\. Ask which\b/i;
const LEAD = /^the lead (.+)$/i;

/**
 * The talking points of a pre-call prompt: the `- topic: detail` lines
 * under its "Cover these talking points" heading, in order.
 */
export function talkingPoints(preCallPrompt: string): TalkingPoint[] {
  const lines = preCallPrompt.split('\n');
  const start = lines.findIndex((line) => TALKING_POINTS_HEADING.test(line.trim()));
  if (start < 0) return [];
  const points: TalkingPoint[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^\s*-\s*([^:]+):\s*(.*)$/.exec(line);
    if (!match) break;
    points.push({ topic: match[1]!.trim(), detail: match[2]!.trim() });
  }
  return points;
}

/** The opening line the pre-call prompt quotes (Twilio speaks it as the welcome greeting), if it quotes one. */
export function openingLine(preCallPrompt: string): string | undefined {
  return OPENING_LINE.exec(preCallPrompt)?.[1]?.trim() || undefined;
}

/**
 * The facts of a call's brief: its meeting, and what the pre-call prompt
 * states of the agenda, participants, campaigns, channel split, content,
 * budget, requirements and pending tasks. Reads the prompt by the shape the
 * stakeholder coordination writes it in; a prompt of another shape yields
 * the meeting and no facts.
 */
export function briefFacts(brief: Pick<CallBrief, 'preCallPrompt' | 'meeting'>): BriefFacts {
  const lines = brief.preCallPrompt.split('\n').map((line) => line.trim());
  const points = talkingPoints(brief.preCallPrompt);
  const detail = (topic: string) => points.find((point) => point.topic.toLowerCase() === topic)?.detail ?? '';
  const opening = openingLine(brief.preCallPrompt);
  const speaker = opening ? SPEAKER.exec(opening)?.[1] : undefined;
  const inTheWorks = items(IN_THE_WORKS.exec(detail('opportunities'))?.[1] ?? '');
  const lead = inTheWorks.map((item) => LEAD.exec(item.title)?.[1]).find((name) => name !== undefined);
  const budget = BUDGET.exec(detail('budget allocation'))?.[1]?.split(' ');
  return {
    title: brief.meeting.title,
    objective: brief.meeting.objective,
    agenda: listAfter(lines, (line) => line === 'Agenda:').flatMap((line) => AGENDA_ITEM.exec(line)?.[1] ?? []),
    participants: participants(lines),
    ...(speaker ? { speaker } : {}),
    ...(opening ? { openingLine: opening } : {}),
    points,
    campaigns: campaigns(detail('performance metrics review')),
    channels: (CHANNELS.exec(detail('channel analysis'))?.[1]?.split(', ') ?? []).flatMap((part) => {
      const match = /^(.+) (\S+)$/.exec(part);
      return match ? [{ name: match[1]!, share: match[2]! }] : [];
    }),
    content: inTheWorks
      .filter((item) => !LEAD.test(item.title))
      .map(({ title, parts }) => ({ title, ...fields(parts, { due: 'due' }, true) })),
    ...(lead ? { lead } : {}),
    ...(budget && budget[0]
      ? { budget: { amount: budget[0], ...(budget.length > 1 ? { currency: budget.slice(1).join(' ') } : {}) } }
      : {}),
    requirements: startsWithNo(detail('resource needs'))
      ? []
      : items(detail('resource needs')).map(({ title, parts }) => ({
          title,
          ...fields(parts, { priority: 'priority', cost: 'estimated cost' }, true),
        })),
    tasks: listAfter(lines, (line) => TASKS_HEADING.test(line)).flatMap((line) => {
      const item = /^-\s+(.+)$/.exec(line)?.[1];
      if (!item) return [];
      const { title, parts } = splitItem(item);
      return [{ title, ...fields(parts, { status: 'status', owner: 'owner', due: 'due' }, false) }];
    }),
  };
}

/** The lines after the first line `isHeading` accepts, up to the next blank line. */
function listAfter(lines: readonly string[], isHeading: (line: string) => boolean): string[] {
  const start = lines.findIndex(isHeading);
  if (start < 0) return [];
  const end = lines.indexOf('', start + 1);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

function participants(lines: readonly string[]): string[] {
  const line = lines.find((candidate) => candidate.startsWith('Participants: '));
  const named = line?.slice('Participants: '.length) ?? '';
  if (named.length === 0 || named.startsWith('not named')) return [];
  return named.split(', ').filter((name) => name.length > 0);
}

function campaigns(detail: string): CampaignFact[] {
  if (startsWithNo(detail)) return [];
  return items(detail).map(({ title, parts }) => {
    // A status has no digits; figures are `name value` pairs (`clicks 3180`).
    const status = parts[0] !== undefined && !/\d/.test(parts[0]) ? parts[0] : undefined;
    const figures = (status === undefined ? parts : parts.slice(1)).flatMap((part) => {
      const match = /^(.+) (\S+)$/.exec(part);
      return match ? [{ name: match[1]!, value: match[2]! }] : [];
    });
    return { title, ...(status ? { status } : {}), figures };
  });
}

function startsWithNo(detail: string): boolean {
  return detail.length === 0 || /^no\b/i.test(detail);
}

/** The `Title (a, b); Title (c)` items of a talking point's facts. */
function items(facts: string): { title: string; parts: string[] }[] {
  const list = facts.split(/[;.]\s*(?:ask|discuss)\b/i)[0]!.replace(/\.$/, '');
  return list
    .split('; ')
    .map(splitItem)
    .filter((item) => item.title.length > 0);
}

/** `Title (a, b)` as its title and parts; a title without parts as itself. */
function splitItem(item: string): { title: string; parts: string[] } {
  const text = item.trim();
  const open = text.lastIndexOf(' (');
  if (!text.endsWith(')') || open < 0) return { title: text, parts: [] };
  return {
    title: text.slice(0, open).trim(),
    parts: text
      .slice(open + 2, -1)
      .split(', ')
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  };
}

/**
 * The named parts of an item (`priority high`, `due 2026-12-05`) as fields;
 * with `bareStatus`, a part without a known prefix is its status.
 */
function fields<K extends string>(
  parts: readonly string[],
  prefixes: Record<K, string>,
  bareStatus: boolean,
): Partial<Record<K | 'status', string>> {
  const found: Partial<Record<K | 'status', string>> = {};
  for (const part of parts) {
    const entry = (Object.entries(prefixes) as [K, string][]).find(([, prefix]) => part.startsWith(`${prefix} `));
    if (entry) found[entry[0]] = part.slice(entry[1].length + 1);
    else if (bareStatus && found.status === undefined) found.status = part;
  }
  return found;
}
