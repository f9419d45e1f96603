import * as z from 'zod';
import { commandIdField, instantField, uuidField } from '../../api/openapi/fields';
import { webhookEvent, type DocumentedEvent } from '../../api/openapi/operation';
import { FOLLOW_UP_TYPES } from '../schema';
import { LEAD_EVENT_TYPES } from './adaptation';
import type { AppliedChange } from './event-records';
import { STEP_STATUSES, type StepView } from './step';

/**
 * The API reference of the follow-up sequences' events (documentation
 * only: no function bundle imports this file): `follow_up.due` and
 * `sequence.adapted`, as events.ts publishes them. Their schemas are
 * inline (no component ids), so they never clash with the components of
 * the sequence routes' own reference.
 */
const nullableInstant = (description: string) => z.string().nullable().meta({ format: 'date-time', description });

const stepFields = {
  id: uuidField('The follow-up step\'s id.'),
  command_id: commandIdField,
  site_id: uuidField('The site.'),
  lead_id: uuidField('The lead.'),
  user_id: z.string().nullable(),
  sequence_position: z.number().int().min(1).meta({ description: 'Its place in the sequence (1 first).' }),
  type: z.enum(FOLLOW_UP_TYPES),
  channel: z.enum(FOLLOW_UP_TYPES).meta({ description: 'The channel it goes out on: its type.' }),
  subject: z.string(),
  content: z.string(),
  status: z.enum(STEP_STATUSES),
  status_reason: z.string().nullable().meta({ description: "Why it was skipped or cancelled: the caller's reason, or the lead event's type." }),
  scheduled_for: instantField('When it is to go out.'),
  due_at: nullableInstant('When it fell due.'),
  sent_at: nullableInstant('When the caller marked it sent.'),
  skipped_at: nullableInstant('When it was skipped.'),
  cancelled_at: nullableInstant('When it was cancelled.'),
  metadata: z.object({ next_steps: z.string(), lead_stage: z.string().nullable(), sequence_position: z.number().int(), template_used: z.string() }),
  created_at: instantField('When the sequence was written.'),
  updated_at: instantField('When it last changed.'),
} satisfies Record<keyof StepView, z.ZodType>;

const changeFields = {
  follow_up_id: uuidField('The step it changed.'),
  change: z.enum(['cancelled', 'rescheduled']),
  previous_status: z.enum(STEP_STATUSES),
  status: z.enum(STEP_STATUSES),
  previous_scheduled_for: instantField('Its time before.'),
  scheduled_for: instantField('Its time now (brought forward after a click).'),
} satisfies Record<keyof AppliedChange, z.ZodType>;

export const SEQUENCE_EVENTS: readonly DocumentedEvent[] = [
  webhookEvent({
    type: 'follow_up.due',
    summary: 'A follow-up step fell due',
    description:
      "A step of a lead's follow-up sequence reached its time (the dispatcher made it `due`): send it, then PATCH /api/follow-ups/{id} with `status: \"sent\"`. " +
      'Sent once per step. Delivered at least once: de-duplicate by `id`.',
    data: z.object({
      follow_up: z.object(stepFields).meta({ description: 'The step, as GET /api/leads/{leadId}/follow-ups shows it.' }),
      follow_up_id: uuidField('The step\'s id.'),
      lead_id: uuidField('The lead.'),
      site_id: uuidField('The site.'),
      command_id: commandIdField,
    }),
  }),
  webhookEvent({
    type: 'sequence.adapted',
    summary: "A lead event changed the lead's remaining follow-ups",
    description:
      "A lead event (POST /api/leads/{leadId}/events) cancelled or moved some of the lead's remaining steps: a reply, a booked meeting or an unsubscribe cancels them all, " +
      'a bounce those on its channel, a click brings the next one forward. Sent once per lead event that changed something. Delivered at least once: de-duplicate by `id`.',
    data: z.object({
      event_id: uuidField('The lead event\'s id, as its POST answered it.'),
      lead_id: uuidField('The lead.'),
      site_id: uuidField('The site.'),
      event: z.object({
        type: z.enum(LEAD_EVENT_TYPES),
        occurred_at: instantField('When it happened (when it was reported, if not given).'),
        channel: z.enum(FOLLOW_UP_TYPES).nullable(),
        summary: z.string().nullable(),
      }),
      changes: z.array(z.object(changeFields)).min(1),
    }),
  }),
];
