import type { LiveFields } from '../catalogue/live-fields';

/**
 * What a stakeholder coordination keeps on its command beside the request:
 * the command object (targets, context, supervisors, task, description),
 * and its call with the call's transcript and meeting summary, which keep
 * moving after the command completed. GET shows the call, transcript and
 * summary as they are now, and once completed what its answer shows from
 * the command object (`completedFromCommand`): its result keeps no second
 * copy of any of it.
 */
export const stakeholderCoordinationLive: LiveFields = {
  // `relay` (the hash of the call's one-time relay token), `transcript_open_until` (how long a turn still being answered
  // as the call ended may write) and `transcript_held_cut` (an interrupt's cut for a reply not yet kept) are stored, never
  // shown.
  fields: [
    'targets',
    'context',
    'supervisors',
    'task',
    'description',
    'call',
    'relay',
    'transcript',
    'meeting_summary',
    'transcript_open_until',
    'transcript_held_cut',
  ],
  view: (command) => ({
    ...(command.result ? completedFromCommand(command) : {}),
    ...(command.result && command.targets !== undefined ? { targets: command.targets } : {}),
    ...(command.call ? { call: command.call } : {}),
    ...(command.transcript ? { transcript: command.transcript } : {}),
    ...(command.meeting_summary ? { meeting_summary: command.meeting_summary } : {}),
  }),
};

/**
 * What a completed stakeholder coordination shows from its command object
 * rather than from its result: both system prompts (from the targets), the
 * context summary when the request asked for it, and the supervisors, task
 * and description. The result holds only what the call phase decided (the
 * conversation, the meeting details, who wrote them): every later write of
 * the command (each status callback, each transcript turn) is billed at the
 * item's whole size, and a second copy of the prompts was a third of it.
 * Plain reads, no schema: GET and the event publishers show any command
 * type, and load no feature's schemas for it.
 */
export function completedFromCommand(command: CommandObjectFields): Record<string, unknown> {
  const prompts = PROMPT_PHASES.flatMap((phase, index) => {
    const content = systemMessageOf(Array.isArray(command.targets) ? command.targets[index + 1] : undefined);
    return content === undefined ? [] : [{ id: phase, role: 'system', phase, content }];
  });
  const request = command.request as { include_context_summary?: unknown } | undefined;
  const summary = (command.context as { summary?: unknown } | undefined)?.summary;
  return {
    ...(prompts.length > 0 ? { system_prompts: prompts } : {}),
    ...(request?.include_context_summary === true && summary !== undefined ? { context_summary: summary } : {}),
    ...(command.site_id !== undefined ? { site_id: command.site_id } : {}),
    ...(command.supervisors !== undefined ? { supervisors: command.supervisors } : {}),
    ...(command.task !== undefined ? { task: command.task } : {}),
    ...(command.description !== undefined ? { description: command.description } : {}),
  };
}

/** The fields of a stored command `completedFromCommand` reads (a live command and a call command alike). */
interface CommandObjectFields {
  readonly result?: unknown;
  readonly targets?: unknown;
  readonly request?: unknown;
  readonly context?: unknown;
  readonly site_id?: unknown;
  readonly supervisors?: unknown;
  readonly task?: unknown;
  readonly description?: unknown;
}

/** The targets after the meeting details, in order: the pre-call prompt, then the post-call one. */
const PROMPT_PHASES = ['pre_call', 'post_call'] as const;

/** The content of a target's system message (`{ messages: [{ role: 'system', content }] }`), if it is one. */
function systemMessageOf(target: unknown): string | undefined {
  const message = (target as { messages?: { role?: unknown; content?: unknown }[] } | undefined)?.messages?.[0];
  return message?.role === 'system' && typeof message.content === 'string' ? message.content : undefined;
}
