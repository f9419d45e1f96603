import type { LiveFields } from '../catalogue/live-fields';

/**
 * What a stakeholder coordination keeps on its command beside the request:
 * the command object (targets, context, supervisors, task, description),
 * and its call with the call's transcript and meeting summary, which keep
 * moving after the command completed. GET shows the call, transcript and
 * summary as they are now, and the targets (the system prompts) from the
 * command once completed: its result keeps no second copy.
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
    ...(command.result && command.targets !== undefined ? { targets: command.targets } : {}),
    ...(command.call ? { call: command.call } : {}),
    ...(command.transcript ? { transcript: command.transcript } : {}),
    ...(command.meeting_summary ? { meeting_summary: command.meeting_summary } : {}),
  }),
};
