import type { ChatMessage } from '../providers/llm/port';
import { pendingTasks, type ContextSummary } from './context-summary';
import type { MeetingContext, MeetingDetails } from './context';

/** When a system prompt is used: guidance during the call, or the summary after it. */
export type PromptPhase = 'pre_call' | 'post_call';

/** One system prompt of the command, as responses show it. */
export interface SystemPrompt {
  id: PromptPhase;
  role: 'system';
  phase: PromptPhase;
  content: string;
}

/** Most pending tasks, requirements, campaigns or content items a prompt names (the summary holds at most 50 of each). */
const MAX_LISTED = 20;

/**
 * The line the assistant opens the call with (Twilio speaks it as the
 * ConversationRelay welcome greeting); the pre-call prompt quotes it.
 */
export function welcomeGreeting(context: MeetingContext, meeting: Pick<MeetingDetails, 'title'>): string {
  const who = context.agent
    ? `${context.agent.name}, the marketing assistant of ${context.site.name}`
    : `the marketing assistant of ${context.site.name}`;
  return `Hello, this is ${who}, calling about ${meeting.title}. Is now still a good time to talk?`;
}

/**
 * PRE_CALL: the assistant's guidance during the call. It names the meeting,
 * its objective, agenda and participants, quotes the opening line, and
 * covers the talking points (performance metrics review, channel analysis,
 * opportunities, budget allocation, resource needs) with the site's own
 * figures, what to do, what to avoid, and the pending tasks by name. Plain
 * text, built from the site's data only.
 */
export function preCallPrompt(context: MeetingContext, meeting: Pick<MeetingDetails, 'title' | 'objective'>): string {
  const { summary } = context;
  const agent = context.agent;
  return [
    `You are ${agent ? `${agent.name}, the CMO agent of ${context.site.name}` : `the CMO agent of ${context.site.name}`}, on a phone call with the stakeholders of ${context.site.name}${context.site.url ? ` (${context.site.url})` : ''}. You guide the meeting: keep it on its objective, bring in the figures below, and close with agreed next steps.`,
    ...(agent?.instructions ? [`Your standing instructions: ${agent.instructions}`] : []),
    '',
    ...meetingLines(context, meeting),
    '',
    `Opening line: ${welcomeGreeting(context, meeting)}`,
    '',
    'Cover these talking points, in agenda order where they fit:',
    `- performance metrics review: ${campaignFigures(summary)}`,
    `- channel analysis: ${channelMix(summary)}`,
    `- opportunities: ${opportunities(context)}`,
    `- budget allocation: ${budget(summary)}`,
    `- resource needs: ${resourceNeeds(summary)}`,
    '',
    'Guidance on what to do:',
    '- cite metrics: quote the figures above when a point touches them, and say where a figure is missing rather than guess one.',
    '- ask participants for input: invite each participant to speak on the points that concern them, and ask before assuming agreement.',
    '- propose next steps: end each agenda item with a concrete next step, an owner and a date.',
    '- link budget to expected return: whenever money comes up, tie it to the return it is expected to bring.',
    '- stay on objectives: bring the conversation back to the objective and the agenda when it drifts.',
    '',
    'Guidance on what to avoid:',
    '- personnel matters beyond resources: talk about capacity and resource needs, never about individual performance, pay or hiring decisions.',
    '- excessive technical detail: keep implementation details short and offer to follow up in writing.',
    '- committing budget without approval: note budget requests as requirements that need approval; never promise spend on the call.',
    '- competitor topics not cleared: do not discuss competitors beyond what the participants raise and the site has cleared.',
    '- off-agenda roadmap items: note them for a later meeting instead of discussing them now.',
    '',
    ...pendingTaskLines(summary, 'Pending tasks of the site (ask for their progress where they touch the agenda):'),
  ].join('\n');
}

/**
 * POST_CALL: how the summary of the call is written. It names the meeting,
 * objective, agenda and participants, and asks for KEY POINTS, DECISIONS,
 * ACTION ITEMS (title, assignee, due date, priority, description) and
 * REQUIREMENTS (title, estimated cost, priority, owner, needs approval).
 */
export function postCallPrompt(context: MeetingContext, meeting: Pick<MeetingDetails, 'title' | 'objective'>): string {
  return [
    `You write the summary of a stakeholder call of ${context.site.name}, from its transcript. Use only what was said on the call; where something was not said, leave it out rather than invent it.`,
    '',
    ...meetingLines(context, meeting),
    '',
    ...pendingTaskLines(context.summary, 'Pending tasks of the site before the call (report what the call said of them):'),
    '',
    'Write the summary in these sections, in plain text:',
    'KEY POINTS: the main points discussed, one line each, with the figures that were cited.',
    'DECISIONS: what was decided, and by whom.',
    'ACTION ITEMS: every task agreed on the call, each with a short title, its assignee, due date, priority (high, medium or low) and a one-sentence description; update a pending task above rather than repeat it.',
    'REQUIREMENTS: every resource or spend requested, each with a short title, its estimated cost (the amount and its currency, as said), priority, owner, and whether it needs approval (needs approval: yes or no).',
    `Close with one line on how far the call met its objective: ${meeting.objective}`,
  ].join('\n');
}

/** The command's two system prompts, as responses show them. */
export function systemPrompts(context: MeetingContext, meeting: Pick<MeetingDetails, 'title' | 'objective'>): SystemPrompt[] {
  return [
    { id: 'pre_call', role: 'system', phase: 'pre_call', content: preCallPrompt(context, meeting) },
    { id: 'post_call', role: 'system', phase: 'post_call', content: postCallPrompt(context, meeting) },
  ];
}

/** The prompts as chat messages (the command's targets carry them so). */
export function asSystemMessage(prompt: SystemPrompt): ChatMessage {
  return { role: 'system', content: prompt.content };
}

function meetingLines(context: MeetingContext, meeting: Pick<MeetingDetails, 'title' | 'objective'>): string[] {
  return [
    `Meeting: ${meeting.title}`,
    `Objective: ${meeting.objective}`,
    context.agenda.length > 0 ? 'Agenda:' : 'Agenda: none was set; follow the talking points below in order.',
    ...context.agenda.map((item, index) => `${index + 1}. ${item}`),
    context.participants.length > 0
      ? `Participants: ${context.participants.join(', ')}`
      : 'Participants: not named in advance; ask who is on the call and note their names.',
    ...(context.lead
      ? [`The meeting concerns the lead ${context.lead.name}${context.lead.company ? ` of ${context.lead.company}` : ''}.`]
      : []),
  ];
}

function pendingTaskLines(summary: ContextSummary, heading: string): string[] {
  const pending = pendingTasks(summary);
  if (pending.length === 0) return ['Pending tasks: the site has no pending tasks on record.'];
  return [
    heading,
    ...pending
      .slice(0, MAX_LISTED)
      .map(
        (task) =>
          `- ${task.title}${describe([
            task.status && `status ${task.status}`,
            task.owner && `owner ${task.owner}`,
            task.due_date && `due ${task.due_date}`,
            task.source === 'call' && 'from an earlier call',
          ])}`,
      ),
  ];
}

function campaignFigures(summary: ContextSummary): string {
  if (summary.campaigns.length === 0) return 'no campaign figures are on record; ask the participants for the figures they track.';
  return `${summary.campaigns
    .slice(0, MAX_LISTED)
    .map((campaign) => {
      const figures = Object.entries(campaign.performance)
        .filter(([, value]) => typeof value === 'number' || typeof value === 'string')
        .map(([name, value]) => `${name.replaceAll('_', ' ')} ${String(value)}`);
      return `${campaign.title}${describe([campaign.status, ...figures])}`;
    })
    .join('; ')}.`;
}

function channelMix(summary: ContextSummary): string {
  const distribution = summary.resource_allocation.distribution;
  if (distribution && typeof distribution === 'object' && !Array.isArray(distribution)) {
    const shares = Object.entries(distribution as Record<string, unknown>)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([channel, share]) => `${channel.replaceAll('_', ' ')} ${share <= 1 ? `${Math.round(share * 100)}%` : String(share)}`);
    if (shares.length > 0)
      return `the current spend by channel is ${shares.join(', ')}; ask which channels earn their share and which do not.`;
  }
  return 'no channel split is on record; ask which channels bring results and which do not.';
}

function opportunities(context: MeetingContext): string {
  const open = context.summary.content.filter((item) => !['published', 'done', 'completed'].includes((item.status ?? '').toLowerCase()));
  const parts = open
    .slice(0, MAX_LISTED)
    .map((item) => `${item.title}${describe([item.status, item.target_completion && `due ${item.target_completion}`])}`);
  if (context.lead) parts.push(`the lead ${context.lead.name}${context.lead.company ? ` of ${context.lead.company}` : ''}`);
  if (parts.length === 0) return 'ask the participants where they see the next opportunity for growth.';
  return `content and leads in the works: ${parts.join('; ')}. Ask which of them deserve more attention.`;
}

function budget(summary: ContextSummary): string {
  const { budget: total, currency } = summary.resource_allocation;
  if (typeof total === 'number' || typeof total === 'string') {
    return `the budget on record is ${String(total)}${typeof currency === 'string' ? ` ${currency}` : ''}; discuss how it is split and what each part is expected to return.`;
  }
  return 'no budget is on record; ask what budget the participants work with before proposing any spend.';
}

function resourceNeeds(summary: ContextSummary): string {
  if (summary.requirements.length === 0)
    return 'no open requirements are on record; ask whether the plan needs people, tools or spend it does not have.';
  return `${summary.requirements
    .slice(0, MAX_LISTED)
    .map(
      (requirement) =>
        `${requirement.title}${describe([
          requirement.status,
          requirement.priority && `priority ${requirement.priority}`,
          requirement.estimated_cost !== null ? `estimated cost ${String(requirement.estimated_cost)}` : undefined,
          requirement.source === 'call' && 'from an earlier call',
        ])}`,
    )
    .join('; ')}.`;
}

/** ` (a, b)` from the parts that are set, or nothing. */
function describe(parts: readonly (string | null | undefined | false)[]): string {
  const kept = parts.filter((part): part is string => typeof part === 'string' && part.length > 0);
  return kept.length > 0 ? ` (${kept.join(', ')})` : '';
}
