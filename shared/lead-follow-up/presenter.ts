import type * as z from 'zod';
import type { CommandPresenter } from '../api/command-responses';
import type { StoredCommand } from '../commands/record';
import type { GeneratedBy } from '../providers/llm/port';
import type { LeadProfile, WritingContext } from './context';
import type { ChannelMessages } from './message-checks';
import type { channelMessagesResultSchema, followUpSequenceResultSchema, leadFollowUpAcceptedSchema } from './openapi';
import type { LeadFollowUpRequest } from './schema';
import type { FollowUpItem } from './sequence';

/** The lead as a response shows it: exactly these fields, nothing more of the stored lead. */
export interface LeadView {
  name: string;
  company: string | null;
  email: string | null;
  phone: string | null;
  position: string | null;
  pain_points: string[];
  budget_range: string | null;
  lead_stage: string | null;
  sites: { name: string; url: string | null };
}

/** Who wrote the copy a result holds. */
export interface Generation {
  generated_by: GeneratedBy;
  model: string;
}

/**
 * Response variant B (`output: "channel_messages"`), as stored in the command's `result`: the documented answer without what showing it
 * adds.
 */
export type ChannelMessagesResult = Omit<z.input<typeof channelMessagesResultSchema>, 'command_id' | 'warnings'>;

/**
 * Response variant A (`output: "follow_up_sequence"`), as stored in the command's `result`: the documented answer without what showing it
 * adds.
 */
export type FollowUpSequenceResult = Omit<z.input<typeof followUpSequenceResultSchema>, 'command_id' | 'warnings'>;

/** `data` of the 202 answer, without what every command answer adds. */
type AcceptedData = Omit<z.input<typeof leadFollowUpAcceptedSchema>, 'command_id' | 'status'>;

export function leadView(lead: LeadProfile, site: WritingContext['site']): LeadView {
  return {
    name: lead.name,
    company: lead.company,
    email: lead.email,
    phone: lead.phone,
    position: lead.position,
    pain_points: lead.pain_points,
    budget_range: lead.budget_range,
    lead_stage: lead.lead_stage,
    sites: { name: site.name, url: site.url },
  };
}

/** Variant B's result from the writing context, the final messages and the phases that ran. */
export function channelMessagesResult(
  context: WritingContext,
  messages: ChannelMessages,
  generation: Generation,
  commandIds: ChannelMessagesResult['command_ids'],
): ChannelMessagesResult {
  return {
    messages,
    lead: leadView(context.lead, context.site),
    interactions: context.interactions,
    preferences: context.preferences,
    command_ids: commandIds,
    generated_by: generation.generated_by,
    model: generation.model,
  };
}

/** Variant A's result. `command_id` is added by the presenter from the command itself. */
export function followUpSequenceResult(
  siteId: string,
  leadId: string,
  followUps: FollowUpItem[],
  generation: Generation,
): FollowUpSequenceResult {
  return {
    siteId,
    leadId,
    follow_ups: followUps,
    saved_to_database: true,
    generated_by: generation.generated_by,
    model: generation.model,
  };
}

/**
 * How a lead follow-up shows its command to a POST caller: 202 with the ids
 * and the output asked for; once completed, `{success, data: {command_id,
 * …result}}` for either variant, with any warnings (a copywriter phase that
 * failed) kept visible.
 */
export function leadFollowUpPresenter(request: Pick<LeadFollowUpRequest, 'siteId' | 'leadId' | 'output'>): CommandPresenter {
  return {
    accepted: () => ({ siteId: request.siteId, leadId: request.leadId, output: request.output }) satisfies AcceptedData,
    completed(command: StoredCommand) {
      return {
        success: true,
        data: {
          command_id: command.id,
          ...command.result,
          ...(command.warnings?.length ? { warnings: command.warnings } : {}),
        },
      };
    },
  };
}
