import * as z from 'zod/mini';
import type { CallCommand, TranscriptEntry } from '../calls/record';
import { lazy } from '../platform/memo';

/**
 * What the voice assistant reads of a stakeholder coordination command:
 * its call, its meeting details and its two system prompts (the command's
 * `targets`: meeting details, then the pre-call and the post-call prompt as
 * one-message lists). Read by shape through this schema: the prompts are
 * the stakeholder feature's product, the assistant only speaks from them.
 * The stored transcript is read back through its schema (absent: empty).
 * Both are built on first use (the status callback imports this module but
 * reads a brief only after a completed call).
 */
const briefSchemas = lazy(() => {
  const systemMessages = z.object({ messages: z.tuple([z.object({ role: z.literal('system'), content: z.string() })]) });
  const targets = z.tuple([
    z.object({ meeting_details: z.object({ title: z.string(), objective: z.string() }) }),
    systemMessages,
    systemMessages,
  ]);
  const transcriptEntry = z.object({
    role: z.enum(['assistant', 'user']),
    content: z.string(),
    at: z.string(),
    generated_by: z.optional(z.enum(['openai', 'offline'])),
    model: z.optional(z.string()),
    source: z.optional(z.literal('welcome_greeting')),
    interrupted: z.optional(z.boolean()),
    dtmf: z.optional(z.string()),
  });
  return { targets, transcript: z.array(transcriptEntry) };
});

/** The stored transcript's schema (built on first use), for stores that read it back. */
export function transcriptSchema() {
  return briefSchemas().transcript;
}

/** A stakeholder command as the call sees it. */
export interface CallBrief {
  commandId: string;
  tenantId: string;
  siteId?: string;
  /** The provider's id of the command's call (Twilio's CallSid), once placed. */
  callSid?: string;
  callStatus?: string;
  meeting: { title: string; objective: string };
  /** PRE_CALL: the assistant's guidance during the call (its system message). */
  preCallPrompt: string;
  /** POST_CALL: how the summary is written. */
  postCallPrompt: string;
  transcript: TranscriptEntry[];
  /** True once the summary was queued or skipped: the transcript is closed. */
  summaryRequested: boolean;
}

/** A command that is not a stakeholder call the assistant can speak on. */
export class NotACallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotACallError';
  }
}

/** Reads a stored command as a call brief; throws NotACallError when it is not a stakeholder coordination with readable prompts. */
export function readCallBrief(command: CallCommand): CallBrief {
  if (command.type !== 'stakeholder_coordination') throw new NotACallError(`command ${command.id} is not a stakeholder coordination`);
  const schemas = briefSchemas();
  const targets = schemas.targets.safeParse(command.targets);
  if (!targets.success) throw new NotACallError(`command ${command.id} has no meeting prompts`);
  const transcript = schemas.transcript.safeParse(command.transcript ?? []);
  if (!transcript.success) throw new NotACallError(`command ${command.id} has a transcript that does not read as one`);
  const [details, preCall, postCall] = targets.data;
  return {
    commandId: command.id,
    tenantId: command.tenant_id,
    ...(command.site_id ? { siteId: command.site_id } : {}),
    ...(command.call?.provider_call_id ? { callSid: command.call.provider_call_id } : {}),
    ...(command.call ? { callStatus: command.call.status } : {}),
    meeting: { title: details.meeting_details.title, objective: details.meeting_details.objective },
    preCallPrompt: preCall.messages[0].content,
    postCallPrompt: postCall.messages[0].content,
    transcript: transcript.data,
    summaryRequested: command.meeting_summary !== undefined,
  };
}

/** How many times the person on the call spoke (keypresses not counted). */
export function callerTurns(transcript: readonly TranscriptEntry[]): number {
  return transcript.filter((entry) => entry.role === 'user' && entry.dtmf === undefined).length;
}
