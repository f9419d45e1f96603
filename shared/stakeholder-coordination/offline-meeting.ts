import { pendingTasks } from './context-summary';
import type { MeetingContext } from './context';

/** Longest title the service writes. */
export const MAX_TITLE = 120;
/** Longest objective the service writes. */
export const MAX_OBJECTIVE = 500;

/** A meeting's title and objective, plain text: what the offline writer and the model write. */
export interface WrittenMeeting {
  title: string;
  objective: string;
}

/** What the request gave of the meeting. */
export interface GivenMeeting {
  title?: string;
  objective?: string;
}

/** True when the request left the title or the objective to the service. */
export function isDynamic(given: GivenMeeting): boolean {
  return given.title === undefined || given.objective === undefined;
}

/**
 * The deterministic writer: a title and an objective from the agenda, and
 * without one from the site's own context (campaigns, pending tasks,
 * requirements). A given title or objective is kept as it is. Plain text,
 * nothing left to fill in.
 */
export function offlineMeetingDetails(context: MeetingContext, given: GivenMeeting): WrittenMeeting {
  const { agenda, summary, site } = context;
  const topics = agenda.length > 0 ? agenda : contextTopics(context);
  const title = given.title ?? clip(topics.length === 0 ? `${site.name} stakeholder meeting` : upperFirst(topicPhrase(topics)), MAX_TITLE);
  const pending = pendingTasks(summary).length;
  const objective =
    given.objective ??
    clip(
      topics.length === 0
        ? `Review where ${site.name} stands and agree on next steps, owners and budget.`
        : `Review ${joinList(topics.map(lowerFirst))}${agenda.length > 0 && pending > 0 ? `, check progress on ${pending} pending task${pending > 1 ? 's' : ''}` : ''}, and agree on next steps, owners and budget.`,
      MAX_OBJECTIVE,
    );
  return { title, objective };
}

/** Meeting topics from the site's context when there is no agenda. */
function contextTopics(context: MeetingContext): string[] {
  const { summary } = context;
  const topics: string[] = [];
  const active = summary.campaigns.filter((campaign) => (campaign.status ?? '').toLowerCase() === 'active');
  if (active.length > 0) topics.push(`${active[0]!.title} results`);
  const pending = pendingTasks(summary);
  if (pending.length > 0) topics.push(pending.length === 1 ? `the pending task ${pending[0]!.title}` : `${pending.length} pending tasks`);
  const open = summary.requirements.filter(
    (requirement) => !['approved', 'done', 'completed', 'rejected'].includes((requirement.status ?? '').toLowerCase()),
  );
  if (open.length > 0) topics.push(open.length === 1 ? `the requirement ${open[0]!.title}` : `${open.length} open requirements`);
  if (topics.length === 0 && context.lead) topics.push(`the lead ${context.lead.name}`);
  return topics;
}

/** Up to two topics by name, then how many more: "A and b", "A, b and 3 more topics". */
function topicPhrase(topics: readonly string[]): string {
  const [first, second] = topics.map(lowerFirst);
  if (topics.length === 1) return first!;
  if (topics.length === 2) return `${first} and ${second}`;
  const more = topics.length - 2;
  return `${first}, ${second} and ${more} more topic${more > 1 ? 's' : ''}`;
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
