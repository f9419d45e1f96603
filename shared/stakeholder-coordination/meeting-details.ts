import * as z from 'zod/mini';
import '../platform/zod-messages';
import { LlmError, type ChatMessage, type GeneratedBy, type LlmClient } from '../providers/llm/port';
import { pendingTasks } from './context-summary';
import type { MeetingContext, MeetingDetails } from './context';
import { isDynamic, MAX_OBJECTIVE, MAX_TITLE, offlineMeetingDetails, type GivenMeeting, type WrittenMeeting } from './offline-meeting';

/** Upper bound on the answer, in tokens: two short lines. */
const MAX_TOKENS = 300;

/** The model's answer: a title and an objective, plain text. */
export const writtenMeetingSchema = z.object({ title: z.string(), objective: z.string() }) satisfies z.ZodMiniType<WrittenMeeting>;

/** The meeting details a worker settled on, and who wrote the generated part. */
export interface SettledMeeting extends MeetingDetails {
  generated_by: GeneratedBy | null;
  model: string | null;
  /** Why the model's answer was not used, when the offline writer stood in for it. */
  fallback_reason?: string;
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
