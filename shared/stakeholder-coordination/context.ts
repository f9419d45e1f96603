import * as z from 'zod/mini';
import '../platform/zod-messages';
import { contextSummarySchema } from './context-summary';

/**
 * What a stakeholder coordination command keeps in its `context`: everything
 * its prompts are built from, read from the site when the request was
 * accepted, so the worker rebuilds them without reading the site again.
 * Read back through this schema, never cast.
 */
export const meetingContextSchema = z.object({
  /** The conversation the meeting is filed under: the one named, or the one the request started. */
  conversation_id: z.string(),
  /** The user the command acts for (`userId`, else the site's owner), when known. */
  user_id: z.nullable(z.string()),
  site: z.object({ id: z.string(), name: z.string(), url: z.nullable(z.string()) }),
  /** The agent who runs the call, when the site has one. */
  agent: z.nullable(z.object({ id: z.string(), name: z.string(), instructions: z.nullable(z.string()) })),
  lead: z.nullable(z.object({ id: z.string(), name: z.string(), company: z.nullable(z.string()) })),
  visitor_id: z.nullable(z.string()),
  participants: z.array(z.string()),
  agenda: z.array(z.string()),
  /** The number the call goes to (the first of the request's), or null when none was given. */
  phone_number: z.nullable(z.string()),
  summary: contextSummarySchema,
});
export type MeetingContext = z.infer<typeof meetingContextSchema>;

/** A meeting's title and objective; `dynamic` when the service wrote either of them. */
export const meetingDetailsSchema = z.object({ title: z.string(), objective: z.string(), dynamic: z.boolean() });
export type MeetingDetails = z.infer<typeof meetingDetailsSchema>;
