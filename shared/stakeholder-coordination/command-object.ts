import * as z from 'zod/mini';
import '../platform/zod-messages';
import type { CallCommand, CallRecord } from '../calls/record';
import { newId } from '../platform/ids';
import { meetingContextSchema, meetingDetailsSchema, type MeetingContext, type MeetingDetails } from './context';
import { systemPrompts, type SystemPrompt } from './prompts';

/** The command's task, as the seed states it. */
export const STAKEHOLDER_TASK = 'Orchestrate the stakeholder call with guidance and generate a summary';

/** The supervisors of a stakeholder coordination, not started yet. */
export const STAKEHOLDER_SUPERVISORS = [
  { agent_role: 'marketing_director', status: 'not_initialized' },
  { agent_role: 'project_manager', status: 'not_initialized' },
] as const;

const systemMessages = z.object({ messages: z.tuple([z.object({ role: z.literal('system'), content: z.string() })]) });

/**
 * The command's targets: the meeting details, then the pre-call and the
 * post-call system prompt, each as a one-message list. Read back through
 * this schema.
 */
export const stakeholderTargetsSchema = z.tuple([z.object({ meeting_details: meetingDetailsSchema }), systemMessages, systemMessages]);
export type StakeholderTargets = z.infer<typeof stakeholderTargetsSchema>;

/** The targets for a meeting: its details and both prompts, built from the context. */
export function stakeholderTargets(context: MeetingContext, meeting: MeetingDetails): StakeholderTargets {
  const [preCall, postCall] = systemPrompts(context, meeting) as [SystemPrompt, SystemPrompt];
  return [
    { meeting_details: { title: meeting.title, objective: meeting.objective, dynamic: meeting.dynamic } },
    { messages: [{ role: 'system', content: preCall.content }] },
    { messages: [{ role: 'system', content: postCall.content }] },
  ];
}

/** The command's description: what it does, for whom, and which number it calls (the meeting's title lives in its targets). */
export function stakeholderDescription(context: MeetingContext): string {
  const call = context.phone_number ? `, the call to ${context.phone_number}` : '';
  return `Stakeholder coordination for ${context.site.name}: pre-call guidance for the assistant${call}, and a post-call summary with key points, decisions, action items and requirements.`;
}

/** A new call, not requested yet: what the 202 answer shows. */
export function newCall(phoneNumber: string, now: number): CallRecord {
  return { id: newId(), status: 'pending', phone_number: phoneNumber, last_sequence: -1, updated_at: new Date(now).toISOString() };
}

/** A stored stakeholder command's context and targets, read back through their schemas. */
export interface ReadStakeholderCommand {
  context: MeetingContext;
  meeting: MeetingDetails;
  prompts: SystemPrompt[];
}

/** Reads the context and targets of a stored stakeholder coordination command (throws when they do not read as such). */
export function readStakeholderCommand(command: CallCommand): ReadStakeholderCommand {
  const context = meetingContextSchema.parse(command.context);
  const [details, preCall, postCall] = stakeholderTargetsSchema.parse(command.targets);
  return {
    context,
    meeting: details.meeting_details,
    prompts: [
      { id: 'pre_call', role: 'system', phase: 'pre_call', content: preCall.messages[0].content },
      { id: 'post_call', role: 'system', phase: 'post_call', content: postCall.messages[0].content },
    ],
  };
}
