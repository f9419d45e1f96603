import * as z from 'zod';
import { commandViewSchema } from '../api/openapi/commands';
import { commandIdField, generatedByField, instantField, uuidField } from '../api/openapi/fields';
import { webhookEvent, type DocumentedEvent } from '../api/openapi/operation';
import { meetingSummarySchema } from './summary-schema';

/**
 * The API reference of the voice assistant (documentation only: no
 * function bundle imports this file): the `meeting_summary.created` event
 * summary-phase.ts publishes once a call's summary is written.
 */
const meetingSummaryEventSchema = z
  .object({
    status: z.literal('completed'),
    command_id: uuidField('The `post_call_summary` command that wrote it.'),
    requested_at: instantField('When the summary was queued (the call ended).'),
    ...meetingSummarySchema.shape,
    reason: z
      .string()
      .optional()
      .meta({
        description:
          'Why every list is empty: the person called said nothing usable (only greetings, filler words or noise), or the call held nothing to note. ' +
          'Absent when the summary holds something.',
      }),
    generated_by: generatedByField,
    model: z.string().optional().meta({ description: 'The model that wrote it.' }),
    created_at: instantField('When it was written.'),
  })
  .meta({
    description:
      "The call's meeting summary, as the command's `meeting_summary` shows it: what was said, decided and asked for; what was not said is `null` or an empty list. " +
      "Each action item also became one of the tenant's tasks of the site (id `<command_id>-task-<nn>`, status `open`) and each requirement one of its " +
      "requirements (id `<command_id>-requirement-<nn>`, status `pending_approval` or `proposed`): they appear in that tenant's next context summaries " +
      '(`source: "call"`) and are erased with the command.',
  });

export const VOICE_ASSISTANT_EVENTS: readonly DocumentedEvent[] = [
  webhookEvent({
    type: 'meeting_summary.created',
    summary: "A call's meeting summary was written",
    description:
      'A stakeholder call ended with something said, and its meeting summary was written (by the model, or the offline writer without one). Sent once per call; ' +
      'the stakeholder command itself is announced by `command.completed` when it completes. Delivered at least once: de-duplicate by `id`.',
    data: z.object({
      command_id: commandIdField.meta({ description: 'The stakeholder coordination command whose call this was.' }),
      meeting_summary: meetingSummaryEventSchema,
      command: commandViewSchema,
    }),
  }),
];
