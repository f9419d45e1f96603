import * as z from 'zod';
import { commandUsageSchema } from './usage';
import { commandTypesRun, type CommandType } from '../../catalogue/job-types';
import type { CommandStatus } from '../../commands/record';
import type { CallRecord, CallStatus } from '../../calls/record';
import { errorInfoSchema } from './errors';
import { commandIdField, EXAMPLE_COMMAND_ID, instantField, uuidField } from './fields';
import { apiOperation, maxWaitOf, preferDescription, successEnvelope, type DocumentedOperation } from './operation';
import { HEADER, PARAMETER } from './components';
import { listCommandsQuerySchema, MAX_COMMAND_PAGE_SIZE, type CommandListItem } from '../list-commands';

const COMMANDS_TAG = { name: 'Commands', description: 'Every operation is a command: read it, wait for it, erase it.' };

/** Every command type, in job-type order (the catalogue's job types are the list). */
const COMMAND_TYPES = commandTypesRun() as [CommandType, ...CommandType[]];
const COMMAND_STATUSES = ['in_progress', 'completed', 'failed'] as const satisfies readonly CommandStatus[];
const CALL_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const satisfies readonly CallStatus[];
/** Fails to compile when a command or call status is added (commands/record.ts, calls/record.ts) but not here. */
const _everyStatus: [Exclude<CommandStatus, (typeof COMMAND_STATUSES)[number]>] extends [never] ? true : false = true;
const _everyCallStatus: [Exclude<CallStatus, (typeof CALL_STATUSES)[number]>] extends [never] ? true : false = true;

export const commandStatusSchema = z.enum(COMMAND_STATUSES).meta({
  id: 'CommandStatus',
  description: '`in_progress` until the last phase ends, then `completed` or `failed`; a terminal state never changes.',
});

/** A command's phone call (calls/record.ts CallRecord), as every answer shows it. */
export const callSchema = z
  .object({
    id: uuidField("The call's own id."),
    status: z.enum(CALL_STATUSES).meta({
      description:
        '`pending` until answered, then `in_progress`; `completed` and `failed` are final. It keeps moving after the command completed.',
    }),
    phone_number: z
      .string()
      .meta({ description: "The number called (E.164): the first of the request's `phone_numbers`.", example: '+14155550123' }),
    provider: z
      .enum(['twilio', 'local'])
      .optional()
      .meta({ description: 'Who carries the call, once requested: Twilio, or the local telephony of `npm start`.' }),
    provider_call_id: z
      .string()
      .optional()
      .meta({ description: "The provider's call id (Twilio `CA…`).", example: 'CA0123456789abcdef0123456789abcdef' }),
    provider_status: z
      .string()
      .optional()
      .meta({ description: "The provider's last word on the call (`queued`, `ringing`, `no-answer`, …).", example: 'ringing' }),
    requested_at: instantField('When a worker asked the provider for the call (set once; nothing dials twice).').optional(),
    reason: z.string().optional().meta({ description: 'Why the call failed.', example: 'nobody answered' }),
    duration_seconds: z.number().int().min(0).optional(),
    answered_by: z
      .string()
      .optional()
      .meta({ description: "Twilio's AnsweredBy (`human`, `machine_start`, …), when machine detection ran." }),
    last_sequence: z.number().int().meta({ description: 'The last status callback applied (SequenceNumber); -1 before any.' }),
    updated_at: instantField('When the call last changed.'),
    note: z.string().optional().meta({ description: 'When the request listed several numbers: only the first is called.' }),
  })
  .meta({
    id: 'Call',
    description:
      'The phone call a stakeholder coordination places when `phone_numbers` names one: one per command, dialled at most once, `pending` at first and always shown as it is now.',
  });

/** True when two object types are the same, optional fields included. */
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false;
/** Fails to compile when a call's stored fields (calls/record.ts) and the documented ones differ; `note` is added by the answer. */
const _callFields: Same<Omit<z.input<typeof callSchema>, 'note'>, CallRecord> = true;

/** `data` of GET /api/commands/{id}. */
export const commandViewSchema = z
  .object({
    command_id: commandIdField,
    type: z.enum(COMMAND_TYPES).meta({
      description: 'The operation: `copywriter` is phase 2 of a lead follow-up (a child command), `post_call_summary` follows a call.',
    }),
    status: commandStatusSchema,
    site_id: uuidField('The site it acts on; absent for deep research.').optional(),
    created_at: instantField('When it was accepted.'),
    updated_at: instantField('When it last changed.'),
    parent_id: uuidField('The command this phase belongs to (a copywriter phase names its lead follow-up).').optional(),
    child_ids: z.array(z.string()).optional().meta({ description: "The command's later phases (a lead follow-up's copywriter command)." }),
    call: callSchema.optional(),
    warnings: z
      .array(errorInfoSchema)
      .optional()
      .meta({ description: 'What went wrong without failing it (a copywriter phase that failed: the sales copy stands).' }),
    error: errorInfoSchema.optional().meta({ description: 'Why it failed, once `failed`.' }),
    usage: commandUsageSchema.optional(),
  })
  .catchall(z.unknown())
  .meta({
    id: 'Command',
    description:
      "A command as its tenant reads it. Once `completed` it also holds its result's fields, as the 200 answer of the POST that started it shows them: " +
      "a lead follow-up's `messages` or `follow_ups` with `command_ids`, a research's `results`, a stakeholder coordination's meeting details and prompts.",
  });

const commandIdParams = z.object({
  id: uuidField('The command id (from `data.command_id` or `Location`; any case).'),
});

const commandListItemSchema = z
  .object({
    command_id: commandIdField,
    type: z.enum(COMMAND_TYPES),
    status: commandStatusSchema,
    site_id: uuidField('The site it acts on; null for deep research.').nullable(),
    created_at: instantField('When it was accepted.'),
    finished_at: instantField('When it completed or failed; null while in progress.').nullable(),
    error: z
      .object({ code: z.string().meta({ example: 'SEARCH_FAILED' }) })
      .nullable()
      .meta({ description: "Its error's code, once failed." }),
  })
  .meta({ id: 'CommandListItem', description: 'A command in a listing: its short form (GET /api/commands/{id} reads it whole).' });

const _listItem: Same<z.infer<typeof commandListItemSchema>, CommandListItem> = true;

const commandPageSchema = z
  .object({
    commands: z.array(commandListItemSchema).max(MAX_COMMAND_PAGE_SIZE).meta({ description: 'Newest first.' }),
    has_more: z.boolean(),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass it as `cursor`, with the same filters, for the next page; null on the last.' }),
  })
  .meta({ id: 'CommandPage' });

/** The routes of shared/api: listing, reading and erasing commands. */
export const COMMAND_OPERATIONS: readonly DocumentedOperation[] = [
  apiOperation({
    method: 'GET',
    path: '/api/commands',
    operationId: 'listCommands',
    tag: COMMANDS_TAG,
    summary: 'List commands',
    description: [
      "The commands the key's tenant started, newest first, a page at a time: every call is a command, so " +
        '`type=stakeholder_coordination` lists the calls. Child phases (a copywriter phase, a post-call summary) are not listed: ' +
        'read them through their parent. A command is listed until its retention (`COMMAND_RETENTION_DAYS`) ends or it is erased.',
      '',
      `Filters narrow together. With filters a page may hold fewer than \`limit\` commands and still give a \`next_cursor\`: each request reads a bounded part ` +
        'of the listing. A cursor holds only with the filters it was given with (else 400 INVALID_REQUEST).',
    ].join('\n'),
    query: listCommandsQuerySchema,
    errors: ['INVALID_REQUEST'],
    answers: {
      200: {
        description: 'A page of commands.',
        schema: successEnvelope(commandPageSchema),
        example: {
          success: true,
          data: {
            commands: [
              {
                command_id: EXAMPLE_COMMAND_ID,
                type: 'stakeholder_coordination',
                status: 'completed',
                site_id: '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c',
                created_at: '2026-11-23T14:02:11.512Z',
                finished_at: '2026-11-23T14:09:40.105Z',
                error: null,
              },
            ],
            has_more: true,
            next_cursor: 'WyIyMDI2LTExLTIzVDE0OjAyOjExLjUxMlojMDE5YWIxYzIiLCJhYmMiXQ',
          },
        },
      },
    },
  }),
  apiOperation({
    method: 'GET',
    path: '/api/commands/{id}',
    operationId: 'getCommand',
    tag: COMMANDS_TAG,
    summary: 'Read a command',
    description:
      "Any command the key's tenant created, in any state, with its result once completed or its error once failed. " +
      'With `Prefer: wait=N` the answer comes as soon as the command ends (or after N seconds, as it is then): poll with it instead of a tight loop.',
    params: commandIdParams,
    parameters: [{ ...PARAMETER.prefer, description: preferDescription(maxWaitOf('GET', '/api/commands/{id}'), 'read') }],
    errors: ['COMMAND_NOT_FOUND'],
    answers: {
      200: {
        description: 'The command (always 200 for a command the caller may see, whatever its state).',
        headers: { 'Preference-Applied': HEADER.preferenceApplied },
        schema: successEnvelope(commandViewSchema),
        example: {
          success: true,
          data: {
            command_id: EXAMPLE_COMMAND_ID,
            type: 'lead_follow_up',
            status: 'in_progress',
            site_id: '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c',
            created_at: '2026-11-23T14:02:11.512Z',
            updated_at: '2026-11-23T14:02:11.512Z',
          },
        },
      },
    },
  }),
  apiOperation({
    method: 'DELETE',
    path: '/api/commands/{id}',
    operationId: 'deleteCommand',
    tag: COMMANDS_TAG,
    summary: 'Erase a command',
    description:
      "Erases a command of the key's tenant, in any state, with its child phases (it may hold a lead's personal data; every command is erased anyway " +
      "`COMMAND_RETENTION_DAYS` after it was made). A worker still running it can no longer write to it. Replaying the request's `Idempotency-Key` " +
      'later runs the request again, as a new command; the erased one never comes back.',
    params: commandIdParams,
    errors: ['COMMAND_NOT_FOUND'],
    answers: {
      200: {
        description: 'Erased.',
        schema: successEnvelope(
          z.object({
            command_id: commandIdField,
            deleted: z.literal(true),
            deleted_ids: z.array(z.string()).meta({ description: 'The command and each child phase this request erased.' }),
            deleted_follow_up_ids: z
              .array(z.string())
              .optional()
              .meta({ description: "A follow-up sequence's follow-ups this request erased (when any)." }),
            deleted_task_ids: z
              .array(z.string())
              .optional()
              .meta({ description: "The tasks the command's call made on the site, erased with it (when any)." }),
            deleted_requirement_ids: z
              .array(z.string())
              .optional()
              .meta({ description: "The requirements the command's call made on the site, erased with it (when any)." }),
          }),
        ),
        example: { success: true, data: { command_id: EXAMPLE_COMMAND_ID, deleted: true, deleted_ids: [EXAMPLE_COMMAND_ID] } },
      },
    },
  }),
];
