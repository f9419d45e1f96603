import * as z from 'zod';
import { LlmError, type ChatMessage, type GeneratedBy, type LlmClient } from '../providers/llm/port';
import { pendingTasks } from './context-summary';
import type { MeetingContext, MeetingDetails } from './context';

/** Upper bound on the answer, in tokens: two short lines. */
const MAX_TOKENS = 300;
const MAX_TITLE = 120;
const MAX_OBJECTIVE = 500;

/** The model's answer: a title and an objective, plain text. */
export const writtenMeetingSchema = z.object({ title: z.string(), objective: z.string() });
export type WrittenMeeting = z.infer<typeof writtenMeetingSchema>;

/** What the request gave of the meeting. */
export interface GivenMeeting {
  title?: string;
  objective?: string;
}

/** The meeting details a worker settled on, and who wrote the generated part. */
export interface SettledMeeting extends MeetingDetails {
  generated_by: GeneratedBy | null;
  model: string | null;
  /** Why the model's answer was not used, when the offline writer stood in for it. */
  fallback_reason?: string;
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

/**
 * Use case: settles the meeting's title and objective. Given ones are kept;
 * a missing one is written by the model (structured output with the schema
 * above, checked: plain text, bounded length), with the offline writer as
 * the fallback when the model is unavailable, declines, or answers with
 * something unusable. `dynamic` is true whenever the service wrote a part.
 */
export async function settleMeetingDetails(llm: LlmClient, context: MeetingContext, given: GivenMeeting): Promise<SettledMeeting> {
  if (!isDynamic(given)) return { title: given.title!, objective: given.objective!, dynamic: false, generated_by: null, model: null };
  const offline = () => offlineMeetingDetails(context, given);
  try {
    const answer = await llm.completeJson({
      schemaName: 'stakeholder_meeting_details',
      schema: writtenMeetingSchema,
      messages: meetingDetailsPrompt(context, given),
      offline,
      maxTokens: MAX_TOKENS,
    });
    const problem = problemWith(answer.value);
    if (!problem) {
      return {
        title: given.title ?? answer.value.title.trim(),
        objective: given.objective ?? answer.value.objective.trim(),
        dynamic: true,
        generated_by: answer.generatedBy,
        model: answer.model,
      };
    }
    return {
      ...offline(),
      dynamic: true,
      generated_by: 'offline',
      model: null,
      fallback_reason: `The model's answer was unusable: ${problem}`,
    };
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    return {
      ...offline(),
      dynamic: true,
      generated_by: 'offline',
      model: null,
      fallback_reason: `The model could not write them: ${error.message}`,
    };
  }
}

/** The messages asking for the missing parts. */
export function meetingDetailsPrompt(context: MeetingContext, given: GivenMeeting): ChatMessage[] {
  const facts = {
    site: context.site.name,
    given_title: given.title ?? null,
    given_objective: given.objective ?? null,
    agenda: context.agenda,
    participants: context.participants,
    pending_tasks: pendingTasks(context.summary).map((task) => task.title),
    campaigns: context.summary.campaigns.map((campaign) => ({ title: campaign.title, status: campaign.status })),
    requirements: context.summary.requirements.map((requirement) => ({ title: requirement.title, status: requirement.status })),
    lead: context.lead ? { name: context.lead.name, company: context.lead.company } : null,
  };
  return [
    {
      role: 'system',
      content:
        `You name stakeholder meetings of a marketing team. Write a title (at most ${MAX_TITLE} characters) and an objective (one sentence, at most ${MAX_OBJECTIVE} characters) ` +
        'for the meeting described by the user, from its agenda and, when there is none, from the context. Keep a given title or objective as it is. ' +
        'Plain text only: no Markdown, no quotes around them, nothing in brackets or braces.',
    },
    { role: 'user', content: JSON.stringify(facts) },
  ];
}

/** Why a written title or objective cannot be used, or undefined when it can. */
function problemWith(written: WrittenMeeting): string | undefined {
  const title = written.title.trim();
  const objective = written.objective.trim();
  if (title.length === 0 || objective.length === 0) return 'an empty title or objective';
  if (title.length > MAX_TITLE) return `a title over ${MAX_TITLE} characters`;
  if (objective.length > MAX_OBJECTIVE) return `an objective over ${MAX_OBJECTIVE} characters`;
  if (/[[\]{}<>]|\*\*|^#|\n/.test(title) || /[[\]{}<>]|\*\*|^#/.test(objective)) return 'markup or placeholders in the text';
  return undefined;
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
