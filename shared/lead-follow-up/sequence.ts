import { cutText } from '../platform/text';
import { followUpId } from './follow-up-id';
import { CHANNEL_LIMITS, CONTENT_LIMIT, SUBJECT_LIMIT, type Channel } from './channels';
import { copyProblems, lengthProblems, type ContentProblem, type CopyRules } from './message-checks';
import { MAX_SEQUENCE, MIN_SEQUENCE, type FollowUpType } from './vocabulary';

export { MAX_SEQUENCE, MIN_SEQUENCE } from './vocabulary';

/**
 * Longest `metadata.next_steps` kept (the model's note to the sender; longer is cut).
 * Bound: a step's item ≤ 120 + 4,000 + 1,000 characters of copy and note, with its reason (500),
 * ≈ 17 KB in three-byte characters; a sequence's command keeps at most 5 of them twice.
 */
export const NEXT_STEPS_LIMIT = 1_000;

/** The order in which follow-up types are used after the caller's `followUpType`. */
const TYPE_PREFERENCE: readonly FollowUpType[] = [
  'email',
  'messaging_app',
  'call',
  'meeting',
  'professional_network_message',
  'video_message',
  'notification',
];

/** Types that need contact data the lead may lack. */
const NEEDS: Partial<Record<FollowUpType, (reach: SequenceReach) => boolean>> = {
  email: (reach) => reach.channels.includes('email'),
  messaging_app: (reach) => reach.channels.includes('messaging_app'),
  call: (reach) => reach.hasPhone,
};

export interface SequenceReach {
  channels: readonly Channel[];
  hasPhone: boolean;
}

/** How many follow-ups a lead at a stage gets: 3 early, 5 late, 4 otherwise. */
export function sequenceLength(leadStage: string | null | undefined): number {
  const stage = leadStage?.trim().toLowerCase() ?? '';
  if (/^(new|lead|cold|unqualified|subscriber|visitor)$/.test(stage)) return 3;
  if (/(proposal|negotiat|closing|decision|contract)/.test(stage)) return 5;
  return 4;
}

/**
 * The types of a sequence, in order: the caller's `followUpType` first when
 * given, then the types the lead can be reached by, in preference order.
 */
export function planSequenceTypes(followUpType: FollowUpType | null | undefined, reach: SequenceReach, length: number): FollowUpType[] {
  const wanted = Math.min(MAX_SEQUENCE, Math.max(MIN_SEQUENCE, length));
  const reachable = TYPE_PREFERENCE.filter((type) => NEEDS[type]?.(reach) ?? true);
  const types: FollowUpType[] = followUpType ? [followUpType] : [];
  for (const type of reachable) {
    if (types.length >= wanted) break;
    if (!types.includes(type)) types.push(type);
  }
  // Few reachable types: go round them again, never the same type twice in a row.
  for (let index = 0; types.length < wanted; index++) {
    const type = reachable[index % reachable.length]!;
    if (type !== types.at(-1)) types.push(type);
  }
  return types;
}

/** One follow-up as a writer produces it. */
export interface WrittenFollowUp {
  subject: string;
  content: string;
  next_steps: string;
  /** Short snake_case name of the approach (becomes `metadata.template_used`). */
  template: string;
}

export type WrittenSequence = { follow_ups: WrittenFollowUp[] };

/** A scheduled follow-up: the item of response variant A. */
export interface FollowUpItem {
  id: string;
  type: FollowUpType;
  subject: string;
  content: string;
  /** UTC ISO 8601. */
  scheduled_for: string;
  status: 'scheduled';
  site_id: string;
  lead_id: string;
  user_id: string | null;
  metadata: {
    next_steps: string;
    lead_stage: string | null;
    sequence_position: number;
    template_used: string;
  };
}

export interface SequenceInput {
  commandId: string;
  siteId: string;
  leadId: string;
  userId: string | null;
  leadStage: string | null;
  /** When the sequence was made (epoch ms); item n is due `n × intervalMs` later. */
  startMs: number;
  intervalMs: number;
  types: readonly FollowUpType[];
  written: readonly WrittenFollowUp[];
}

/** Builds the scheduled follow-ups from the plan and the written copy. */
export function buildSequence(input: SequenceInput): FollowUpItem[] {
  if (input.written.length !== input.types.length) {
    throw new RangeError(`Expected ${input.types.length} written follow-ups, got ${input.written.length}`);
  }
  return input.types.map((type, index) => {
    const position = index + 1;
    const written = input.written[index]!;
    return {
      id: followUpId(input.commandId, position),
      type,
      subject: written.subject.trim(),
      content: written.content.trim(),
      scheduled_for: new Date(input.startMs + position * input.intervalMs).toISOString(),
      status: 'scheduled',
      site_id: input.siteId,
      lead_id: input.leadId,
      user_id: input.userId,
      metadata: {
        next_steps: cutText(written.next_steps.trim(), NEXT_STEPS_LIMIT).trim(),
        lead_stage: input.leadStage,
        sequence_position: position,
        template_used: templateName(written.template, type),
      },
    };
  });
}

function templateName(template: string, type: FollowUpType): string {
  const name = template
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return name || `${type}_follow_up`;
}

/** Output checks of a written sequence: count, and each subject and content as copy with its type's limits. */
export function checkWrittenSequence(written: WrittenSequence, types: readonly FollowUpType[], rules: CopyRules): ContentProblem[] {
  const problems: ContentProblem[] = [];
  if (written.follow_ups.length !== types.length) {
    problems.push({
      code: 'count',
      message: `expected ${types.length} follow-ups, got ${written.follow_ups.length}`,
      path: ['follow_ups'],
    });
  }
  written.follow_ups.forEach((item, index) => {
    const type = types[index];
    const path = ['follow_ups', String(index)];
    const contentLimit = (type && type in CHANNEL_LIMITS ? CHANNEL_LIMITS[type as Channel].message : undefined) ?? CONTENT_LIMIT;
    problems.push(
      ...copyProblems(item.subject, [...path, 'subject'], rules),
      ...lengthProblems(item.subject, SUBJECT_LIMIT, [...path, 'subject']),
      ...copyProblems(item.content, [...path, 'content'], rules),
      ...lengthProblems(item.content, contentLimit, [...path, 'content']),
    );
    if (item.next_steps.trim() === '') problems.push({ code: 'empty', message: 'is empty', path: [...path, 'next_steps'] });
  });
  return problems;
}
