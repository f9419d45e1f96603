import type { StoredCommand } from '../commands/record';

/**
 * The live state of a command that places a phone call: the call itself,
 * what was said on it, and its meeting summary. Stakeholder coordination
 * places the call and the voice assistant transcribes and summarises it,
 * so the types live here, beside both features and outside the kernel.
 */

/** Where a command's phone call stands: `pending` until answered, then `in_progress`; `completed` and `failed` are final. */
export type CallStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

/** The call states a call never leaves. */
export const FINAL_CALL_STATUSES: readonly CallStatus[] = ['completed', 'failed'];

/**
 * A command's phone call (stakeholder coordination): the command's one live
 * effect. The command's status ends when its phases end; its call keeps
 * moving afterwards (Twilio's status callbacks), so it is stored beside the
 * command's status, written only by conditional updates of its own, and
 * always shown as it is now (GET /api/commands/{id}).
 */
export interface CallRecord {
  id: string;
  status: CallStatus;
  /** The number called (E.164): the first of the request's phone_numbers. */
  phone_number: string;
  /** Who carries it, once requested: Twilio, or the local telephony of `npm start`. */
  provider?: 'twilio' | 'local';
  /** The provider's call id (Twilio `CA…`), once the provider took the call. */
  provider_call_id?: string;
  /** The provider's own word for the last status it reported (`queued`, `ringing`, `no-answer`, …). */
  provider_status?: string;
  /** When a worker claimed the right to dial it; set once, before dialling, so nothing dials twice. */
  requested_at?: string;
  /** Why the call failed (safe to show). */
  reason?: string;
  duration_seconds?: number;
  /** Twilio's AnsweredBy (`human`, `machine_start`, …), when machine detection ran. */
  answered_by?: string;
  /** Highest status callback SequenceNumber applied; -1 before any. Older or repeated callbacks change nothing. */
  last_sequence: number;
  updated_at: string;
}

/** One line of a call's transcript, kept on the command as the call goes (the voice assistant). */
export interface TranscriptEntry {
  /** `assistant`: what the assistant said (its opening line and replies); `user`: what the person on the call said or keyed in. */
  role: 'assistant' | 'user';
  /** The words, plain text; an interrupted reply keeps only what was spoken. */
  content: string;
  /** When it was said (ISO 8601). */
  at: string;
  /** Who wrote an assistant reply: the model, or the offline writer (labelled like every offline result). */
  generated_by?: 'openai' | 'offline';
  model?: string;
  /** `welcome_greeting` for the opening line Twilio speaks from the TwiML. */
  source?: 'welcome_greeting';
  /** The person spoke over this reply; `content` was cut to what had been spoken. */
  interrupted?: boolean;
  /** A key pressed on the keypad (DTMF), for `user` entries that are one. */
  dtmf?: string;
}

/** One action item of a meeting summary (it also becomes one of the tenant's tasks of the site). */
export interface MeetingActionItem {
  title: string;
  assignee: string | null;
  /** As said on the call (`2026-12-05`, `Friday`), or null when none was given. */
  due_date: string | null;
  priority: 'high' | 'medium' | 'low';
  description: string;
}

/** One requirement (resource or spend) a meeting summary records (it also becomes one of the tenant's requirements of the site). */
export interface MeetingRequirement {
  title: string;
  description: string;
  /** The amount said on the call (`$5,000` is 5000), or null when none was given. */
  estimated_cost: number | null;
  /** ISO 4217 code of the amount, when the call said it. */
  currency: string | null;
  priority: 'high' | 'medium' | 'low';
  owner: string | null;
  needs_approval: boolean;
}

/**
 * The meeting summary of a command's call (stakeholder coordination),
 * written after the call by its `post_call_summary` child: `pending` once
 * queued, `completed` with the summary, `skipped` when nothing was said on
 * the call (decided as the call ended, when no turn can still be written,
 * or else by the child once the transcript closed). Like the call, it lives
 * beside the command's status and changes only through conditional updates
 * of its own.
 */
export interface MeetingSummaryRecord {
  status: 'pending' | 'completed' | 'skipped';
  /** The `post_call_summary` command that writes it (absent when skipped as the call ended). */
  command_id?: string;
  requested_at: string;
  /**
   * Why the summary holds nothing: set when `skipped` (nothing was said), and when `completed` from a transcript with
   * nothing usable in it (only the greeting, noise or filler words): every list is then empty, and nothing was invented.
   */
  reason?: string;
  key_points?: string[];
  decisions?: string[];
  action_items?: MeetingActionItem[];
  requirements?: MeetingRequirement[];
  /** One line on how far the call met its objective. */
  objective_outcome?: string;
  generated_by?: 'openai' | 'offline';
  model?: string;
  created_at?: string;
}

/**
 * The call's one-time relay URL (the voice assistant's socket): the hash of
 * the token in the URL, written with the call's request, and spent by the
 * one socket whose `setup` proves it holds it. Never shown: no view reads it.
 */
export interface RelayGrant {
  /** SHA-256 (hex) of the token in the call's relay URL. */
  token_hash: string;
  issued_at: string;
  /** When a socket's setup spent the token; no other socket is taken for the call after it. */
  spent_at?: string;
  /** The socket that spent it. */
  connection_id?: string;
}

/** True once the call has completed or failed: no callback moves it again. */
export function isFinalCallStatus(status: CallStatus): boolean {
  return FINAL_CALL_STATUSES.includes(status);
}

/**
 * What a command that places a call keeps beside the kernel's fields (its
 * live fields: the kernel stores and returns them untouched). Stakeholder
 * coordination writes the command object (`targets`, `context`,
 * `supervisors`, `task`, `description`) and the call; the voice assistant
 * appends the transcript and writes the meeting summary.
 */
export interface CallCommandFields {
  /** The command object: the meeting details, then the pre-call and post-call prompts (read with their schema). */
  targets: unknown[];
  /** The site's context the meeting was prepared from (read with its schema). */
  context: unknown;
  supervisors: unknown[];
  task: string;
  description: string;
  /** Its phone call: the command's one live effect, which may still move after the command is terminal. */
  call: CallRecord;
  /** The call's one-time relay URL, once the call was requested. */
  relay: RelayGrant;
  /** What was said on its call, turn by turn (appended by the voice assistant as the call goes). */
  transcript: TranscriptEntry[];
  /** The summary of its call, once the call ended. */
  meeting_summary: MeetingSummaryRecord;
  /**
   * Until when (epoch milliseconds) the transcript still takes the turn that was being answered as the end of the call
   * was reported (the transcript grace); absent: it closed with the summary's request.
   */
  transcript_open_until: number;
}

/** A stored command that places a call, with its live fields. */
export type CallCommand = StoredCommand<CallCommandFields>;
