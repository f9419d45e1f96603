import * as z from 'zod/mini';
import '../../platform/zod-messages';
import { CHANNEL_LIMITS, CONTENT_LIMIT, SUBJECT_LIMIT, type Channel } from '../channels';
import { FOLLOW_UP_TYPES, type FollowUpType } from '../vocabulary';

/**
 * Where a step of a follow-up sequence stands. `scheduled` until its time
 * comes (the dispatcher then makes it `due` and announces it), `sent` once
 * the caller says it went out; `skipped` and `cancelled` end it unsent
 * (by the caller, or by a lead event such as a reply).
 */
export const STEP_STATUSES = ['scheduled', 'due', 'sent', 'skipped', 'cancelled'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** The states a step never leaves. */
export const FINAL_STEP_STATUSES: readonly StepStatus[] = ['sent', 'skipped', 'cancelled'];

/** The states of a step still to come: the remaining sequence. */
export const OPEN_STEP_STATUSES: readonly StepStatus[] = ['scheduled', 'due'];

/** Every move a step may make, from each state: the one table of its transitions. */
const TRANSITIONS: Readonly<Record<StepStatus, readonly StepStatus[]>> = {
  scheduled: ['due', 'sent', 'skipped', 'cancelled'],
  due: ['sent', 'skipped', 'cancelled'],
  sent: [],
  skipped: [],
  cancelled: [],
};

/** True when a step in `from` may move to `to`. */
export function canMove(from: StepStatus, to: StepStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** True when a step's copy may still be edited: until it is sent, skipped or cancelled. */
export function canEditCopy(status: StepStatus): boolean {
  return OPEN_STEP_STATUSES.includes(status);
}

/** True when a step may be given another time: only while scheduled (a due step has been announced). */
export function canReschedule(status: StepStatus): boolean {
  return status === 'scheduled';
}

/** The lead event that changed a step, kept on it (so a repeated event finds its own work done). */
export interface StepAdaptation {
  event_id: string;
  event_type: string;
  at: string;
}

const isoString = z.string().check(z.minLength(1), z.maxLength(64));

/**
 * A step as the table holds it (`FOLLOWUP#<id>`): the item the sales phase
 * saved, plus what running it adds. Read back through this schema, never a
 * cast; unknown attributes (the index keys) are dropped.
 */
export const storedStepSchema = z.object({
  id: z.string().check(z.minLength(1)),
  type: z.enum(FOLLOW_UP_TYPES),
  subject: z.string(),
  content: z.string(),
  scheduled_for: isoString,
  status: z.enum(STEP_STATUSES),
  site_id: z.string().check(z.minLength(1)),
  lead_id: z.string().check(z.minLength(1)),
  user_id: z.nullable(z.string()),
  metadata: z.object({
    next_steps: z.string(),
    lead_stage: z.nullable(z.string()),
    sequence_position: z.int(),
    template_used: z.string(),
  }),
  tenant_id: z.string().check(z.minLength(1)),
  command_id: z.string().check(z.minLength(1)),
  created_at: isoString,
  updated_at: z.optional(isoString),
  due_at: z.optional(isoString),
  announced_at: z.optional(isoString),
  sent_at: z.optional(isoString),
  skipped_at: z.optional(isoString),
  cancelled_at: z.optional(isoString),
  /** Why it was skipped or cancelled: the caller's reason, or the lead event's type. */
  status_reason: z.optional(z.string()),
  edited_at: z.optional(isoString),
  adapted_by: z.optional(z.object({ event_id: z.string(), event_type: z.string(), at: isoString })),
  /** When its sequence was paused: it stays scheduled, out of the dispatcher's index, until the sequence resumes. */
  paused_at: z.optional(isoString),
  /** Its time before a lead event moved it. */
  previous_scheduled_for: z.optional(isoString),
  /** Epoch seconds after which the table deletes it (TTL): its schedule plus COMMAND_RETENTION_DAYS. */
  expires_at: z.optional(z.number()),
});

export type StoredStep = z.infer<typeof storedStepSchema>;

/** True once a step's retention has run out (the table's TTL deletes lazily): it then reads as missing. */
export function isStepExpired(step: Pick<StoredStep, 'expires_at'>, now: number): boolean {
  return step.expires_at !== undefined && step.expires_at * 1000 <= now;
}

/** Longest content a step of this type may have (the channel's message limit, else the sequence's). */
export function contentLimitOf(type: FollowUpType): number {
  return (type in CHANNEL_LIMITS ? CHANNEL_LIMITS[type as Channel].message : undefined) ?? CONTENT_LIMIT;
}

/** Longest subject of any step. */
export const STEP_SUBJECT_LIMIT = SUBJECT_LIMIT;

/** A step as the API shows it (list, edit, and the `follow_up.due` event). */
export interface StepView {
  id: string;
  command_id: string;
  site_id: string;
  lead_id: string;
  user_id: string | null;
  sequence_position: number;
  type: FollowUpType;
  /** The channel it goes out on: its type. */
  channel: FollowUpType;
  subject: string;
  content: string;
  status: StepStatus;
  status_reason: string | null;
  scheduled_for: string;
  due_at: string | null;
  sent_at: string | null;
  skipped_at: string | null;
  cancelled_at: string | null;
  metadata: StoredStep['metadata'];
  created_at: string;
  updated_at: string;
}

/** The public view of a stored step: no tenant, index keys or bookkeeping. */
export function stepView(step: StoredStep): StepView {
  return {
    id: step.id,
    command_id: step.command_id,
    site_id: step.site_id,
    lead_id: step.lead_id,
    user_id: step.user_id,
    sequence_position: step.metadata.sequence_position,
    type: step.type,
    channel: step.type,
    subject: step.subject,
    content: step.content,
    status: step.status,
    status_reason: step.status_reason ?? null,
    scheduled_for: step.scheduled_for,
    due_at: step.due_at ?? null,
    sent_at: step.sent_at ?? null,
    skipped_at: step.skipped_at ?? null,
    cancelled_at: step.cancelled_at ?? null,
    metadata: step.metadata,
    created_at: step.created_at,
    updated_at: step.updated_at ?? step.created_at,
  };
}
