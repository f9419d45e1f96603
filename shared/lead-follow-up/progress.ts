import * as z from 'zod/mini';
import '../platform/zod-messages';
import { isErrorCode, type ErrorCode, type ErrorDetails } from '../platform/errors';
import { lazy } from '../platform/memo';
import { allowedContactsSchema } from './allowed-contacts';
import { CHANNEL_ORDER, type Channel } from './channels';
import type { WritingContext } from './context';
import type { ChannelMessage, ChannelMessages } from './message-checks';
import type { Generation } from './presenter';
import { FOLLOW_UP_TYPES } from './vocabulary';
import type { FollowUpItem } from './sequence';

/**
 * What the phases of a lead follow-up keep in their commands' `progress`,
 * as zod schemas: stored state is read back through them, never cast.
 */

/**
 * The schemas below are built the first time a stored progress holds
 * something to read, not when a function starts: a sales job's first
 * attempt reads an empty progress, and the accept route never reads one,
 * so neither builds them (about 65 zod schemas).
 */
const parts = lazy(() => {
  const nullableText = z.nullable(z.string());
  const channel = z.enum(CHANNEL_ORDER as [Channel, ...Channel[]]);
  const followUpType = z.enum(FOLLOW_UP_TYPES);
  const writingContextSchema: z.ZodMiniType<WritingContext> = z.object({
    site: z.object({ name: z.string(), url: nullableText }),
    agent: z.object({ name: z.string(), instructions: nullableText }),
    lead: z.object({
      name: z.string(),
      company: nullableText,
      position: nullableText,
      email: nullableText,
      phone: nullableText,
      pain_points: z.array(z.string()),
      budget_range: nullableText,
      lead_stage: nullableText,
      language: nullableText,
    }),
    interactions: z.array(z.object({ date: z.string(), type: z.string(), summary: z.string() })),
    preferences: z.record(z.string(), z.unknown()),
    productInterest: z.array(z.string()),
    followUpType: z.nullable(followUpType),
    channels: z.array(channel),
    allowed_contacts: allowedContactsSchema,
  });
  const channelMessageSchema: z.ZodMiniType<ChannelMessage> = z.object({ title: z.string(), message: z.string(), strategy: z.string() });
  const channelMessagesSchema: z.ZodMiniType<ChannelMessages> = z.partialRecord(channel, channelMessageSchema);
  const followUpItemSchema: z.ZodMiniType<FollowUpItem> = z.object({
    id: z.string(),
    type: followUpType,
    subject: z.string(),
    content: z.string(),
    scheduled_for: z.string(),
    status: z.literal('scheduled'),
    site_id: z.string(),
    lead_id: z.string(),
    user_id: nullableText,
    metadata: z.object({
      next_steps: z.string(),
      lead_stage: nullableText,
      sequence_position: z.number(),
      template_used: z.string(),
    }),
  });
  return { writingContextSchema, channelMessagesSchema, followUpItemSchema };
});

const generationShape = lazy(() => ({ generated_by: z.enum(['openai', 'offline']), model: z.string() }) satisfies z.core.$ZodLooseShape);
/** Fails to compile when the stored generation fields stop reading as the presenter's `Generation`. */
const _generationStored: z.infer<z.ZodMiniObject<ReturnType<typeof generationShape>>> extends Generation ? true : false = true;

function buildSalesProgressSchema() {
  const { writingContextSchema, channelMessagesSchema, followUpItemSchema } = parts();
  return z.discriminatedUnion('output', [
    z.object({
      ...generationShape(),
      output: z.literal('channel_messages'),
      context: writingContextSchema,
      messages: channelMessagesSchema,
      /** The copywriter agent chosen for phase 2, or null when the site has none. */
      copywriter_agent_id: z.nullable(z.string()),
    }),
    z.object({ ...generationShape(), output: z.literal('follow_up_sequence'), follow_ups: z.array(followUpItemSchema) }),
  ]);
}

/** What the sales phase keeps in `progress.sales` before it hands off or finishes (built on first use). */
export const salesProgressSchema = lazy(buildSalesProgressSchema);
export type SalesProgress = z.infer<ReturnType<typeof buildSalesProgressSchema>>;

/** The progress of a lead follow-up command: `sales`'s schema is built by the first progress that holds it. */
export const leadFollowUpProgressSchema = z.object({ sales: z.optional(z.lazy(salesProgressSchema)) });
export type LeadFollowUpProgress = z.infer<typeof leadFollowUpProgressSchema>;

function buildCopywriterOutcomeSchema() {
  return z.union([
    z.object({ ...generationShape(), ok: z.literal(true), messages: parts().channelMessagesSchema }),
    z.object({
      ok: z.literal(false),
      error: z.object({
        code: z.custom<ErrorCode>(isErrorCode, 'unknown error code'),
        message: z.string(),
        details: z.optional(z.custom<ErrorDetails>((value) => typeof value === 'object' && value !== null)),
      }),
    }),
  ]);
}

/** What the copywriter phase keeps in its own command's `progress.copywriter` (built on first use). */
export const copywriterOutcomeSchema = lazy(buildCopywriterOutcomeSchema);
export type CopywriterProgress = z.infer<ReturnType<typeof buildCopywriterOutcomeSchema>>;

/** The progress of a copywriter command. */
export const copywriterCommandProgressSchema = z.object({ copywriter: z.optional(z.lazy(copywriterOutcomeSchema)) });
export type CopywriterCommandProgress = z.infer<typeof copywriterCommandProgressSchema>;
