import * as z from 'zod/mini';
import { described } from '../platform/described';
import '../platform/zod-messages';
import { DEMO_LEAD_ID, DEMO_SITE_ID } from '../api/examples';
import { AppError } from '../platform/errors';
import { isUuid } from '../platform/ids';
import { cleanText, groupedDigits } from '../platform/text';
import { describeFirstIssue, toIssueDetails } from '../platform/validation';
import { aliasNormaliser } from '../platform/field-aliases';
import { cleanedText } from '../platform/text-field';

/**
 * The validated request of `POST /api/agents/cmo/stakeholder-coordination`
 * in its canonical shape: what the command stores and its worker runs.
 * Parsing it again gives it back unchanged.
 */
export interface StakeholderCoordinationRequest {
  site_id: string;
  meeting_title?: string;
  meeting_objective?: string;
  /** E-mail addresses or names; empty when none were given. */
  participants: string[];
  /** The agenda, one item per entry (a text agenda is split into its lines). */
  meeting_agenda: string[];
  /** E.164 numbers; only the first is called. Empty: no call. */
  phone_numbers: string[];
  visitor_id?: string;
  lead_id?: string;
  userId?: string;
  conversationId?: string;
  agentId?: string;
  include_context_summary: boolean;
}

/** Most numbers a request may list (only the first is called). */
export const MAX_PHONE_NUMBERS = 10;
const MAX_PARTICIPANTS = 50;
/**
 * Most characters of all participants together (names or e-mail addresses),
 * kept, like the agenda, in the request, the context and both prompts.
 * Bound: ≤ 4,000 characters (50 of 80), ≈ 12 KB a copy in three-byte characters.
 */
const MAX_PARTICIPANTS_TEXT = 4_000;
const MAX_AGENDA_ITEMS = 50;
/** Longest agenda item. */
const MAX_AGENDA_ITEM_TEXT = 1_000;
/**
 * Longest agenda a request may send, as one text or in all its items
 * together. The agenda is kept in the command's request and context and in
 * both system prompts (its targets): four copies.
 * Bound: ≤ 10,000 characters, ≈ 30 KB a copy in three-byte characters.
 */
const MAX_AGENDA_TEXT = 10_000;
/** Accepted spellings of each field: the issue's name first. */
const ALIASES: readonly (readonly [string, ...string[]])[] = [
  ['site_id', 'siteId'],
  ['meeting_title', 'meetingTitle'],
  ['meeting_objective', 'meetingObjective'],
  ['meeting_agenda', 'meetingAgenda'],
  ['phone_numbers', 'phoneNumbers'],
  ['visitor_id', 'visitorId'],
  ['lead_id', 'leadId'],
  ['userId', 'user_id'],
  ['conversationId', 'conversation_id'],
  ['agentId', 'agent_id'],
  ['include_context_summary', 'includeContextSummary'],
];

/** The id fields; their spellings compare as UUIDs (case-blind). */
const ID_FIELDS: ReadonlySet<string> = new Set(['site_id', 'visitor_id', 'lead_id', 'userId', 'conversationId', 'agentId']);

/** Maps alias spellings onto canonical names and drops nulls (built once: this runs on every request). */
const normalizeAliases = aliasNormaliser(ALIASES, ID_FIELDS);

const text = (max: number) => cleanedText(max).check(z.minLength(1, 'must not be empty'));

/** A UUID, in lower case (UUIDs compare case-insensitively). */
const uuid = z.pipe(
  z.string().check(z.maxLength(64, 'Invalid UUID'), z.refine(isUuid, { message: 'Invalid UUID' })),
  z.transform((value) => value.toLowerCase()),
);

const email = z.email();

/** Something that looks like an e-mail address must be one; anything else is a name. */
const participant = text(320).check(
  z.refine((value: string) => !value.includes('@') || email.safeParse(value).success, {
    message: 'Invalid e-mail address (a participant is an e-mail address or a name)',
  }),
);

/** A list marker at the start of an agenda line: `1.`, `2)`, `-`, `*`, `•`. */
const LIST_MARKER = /^(?:\d{1,3}[.)]|[-*•])\s+/;

/** An agenda given as one text becomes one item per non-empty line, without list markers. */
function agendaItems(value: string): string[] {
  return value
    .split('\n')
    .map((line) => line.trim().replace(LIST_MARKER, '').trim())
    .filter((line) => line.length > 0);
}

const agenda = z
  .union([
    z.array(text(MAX_AGENDA_ITEM_TEXT)).check(z.maxLength(MAX_AGENDA_ITEMS)),
    z.pipe(
      z
        .string()
        .check(z.maxLength(MAX_AGENDA_TEXT, { abort: true, message: `Too big: expected string to have <=${MAX_AGENDA_TEXT} characters` })),
      z.transform((value: string) => agendaItems(cleanText(value))),
    ),
  ])
  .check(
    z.refine((items) => items.every((item) => item.length <= MAX_AGENDA_ITEM_TEXT), {
      message: `Too big: an agenda item has more than ${MAX_AGENDA_ITEM_TEXT} characters`,
    }),
    z.refine((items) => items.length <= MAX_AGENDA_ITEMS, { message: `Too big: at most ${MAX_AGENDA_ITEMS} agenda items` }),
    z.refine((items) => items.reduce((total, item) => total + item.length, 0) <= MAX_AGENDA_TEXT, {
      message: `Too big: the agenda has more than ${MAX_AGENDA_TEXT} characters in all`,
    }),
  );

/** Whether a number is written in E.164, as libphonenumber-js reads it (phone-number.ts). */
type PhoneNumberRule = (value: string) => boolean;

/**
 * The rule the request's numbers are held to, once read: libphonenumber-js
 * with its full metadata (190 KiB) is read on the first number an instance
 * checks, not at every cold start (the API function is code split).
 */
let e164Rule: PhoneNumberRule | undefined;

/** Reads the E.164 rule (a chunk of its own in the API function's bundle). */
async function loadE164Rule(): Promise<PhoneNumberRule> {
  e164Rule ??= (await import('./phone-number')).isE164PhoneNumber;
  return e164Rule;
}

/** The E.164 check: at once when the rule is read, else a promise (so only an async parse could meet a number first). */
function isE164(value: string): boolean | Promise<boolean> {
  return e164Rule ? e164Rule(value) : loadE164Rule().then((rule) => rule(value));
}

const phoneNumber = z
  .string()
  .check(z.trim(), z.refine(isE164, { message: 'Invalid phone number: expected a valid E.164 number such as +14155550123' }));

/**
 * The request of `POST /api/agents/cmo/stakeholder-coordination`, under its
 * snake_case names (each alias is named in its field's description): the
 * one schema the API checks and the reference describes.
 */
export const requestSchema = described(
  z
    .object({
      site_id: described(uuid, { format: 'uuid', description: 'The site (alias `siteId`).', example: DEMO_SITE_ID }),
      meeting_title: described(z.optional(text(200)), {
        description: "The meeting's title (alias `meetingTitle`); without it the agent writes one.",
        example: 'Winter campaign results and budget for January',
      }),
      meeting_objective: described(z.optional(text(2_000)), {
        description: 'What the meeting must achieve (alias `meetingObjective`); without it the agent writes one.',
      }),
      participants: described(
        z.optional(
          z.array(participant).check(
            z.maxLength(MAX_PARTICIPANTS),
            z.refine((items) => items.reduce((total, item) => total + item.length, 0) <= MAX_PARTICIPANTS_TEXT, {
              message: `Too big: the participants have more than ${MAX_PARTICIPANTS_TEXT} characters in all`,
            }),
          ),
        ),
        {
          description: `E-mail addresses or names: at most ${MAX_PARTICIPANTS}, and ${groupedDigits(MAX_PARTICIPANTS_TEXT)} characters in all.`,
          example: ['maya.chen@northwind-outdoor.example'],
        },
      ),
      meeting_agenda: described(z.optional(agenda), {
        description:
          `The agenda (alias \`meetingAgenda\`): a list (at most ${MAX_AGENDA_ITEMS} items of ${groupedDigits(MAX_AGENDA_ITEM_TEXT)} characters), or one text whose lines become items ` +
          `(list markers dropped); ${groupedDigits(MAX_AGENDA_TEXT)} characters in all either way.`,
        example: ['Campaign results', 'January budget'],
      }),
      phone_numbers: described(z.optional(z.array(phoneNumber).check(z.maxLength(MAX_PHONE_NUMBERS))), {
        description: `E.164 numbers (alias \`phoneNumbers\`), at most ${MAX_PHONE_NUMBERS}: only the first is called. None: no call.`,
        example: ['+14155550123'],
      }),
      visitor_id: described(z.optional(uuid), { format: 'uuid', description: 'A visitor of the site (alias `visitorId`).' }),
      lead_id: described(z.optional(uuid), { format: 'uuid', description: 'A lead of the site (alias `leadId`).', example: DEMO_LEAD_ID }),
      userId: described(z.optional(uuid), {
        format: 'uuid',
        description: "The user the meeting is for (alias `user_id`); without it, the site's owner.",
      }),
      conversationId: described(z.optional(uuid), {
        format: 'uuid',
        description:
          "A conversation of the key's tenant on the site to file the meeting under (alias `conversation_id`; another tenant's is NOT_FOUND); without it a new one is started.",
      }),
      agentId: described(z.optional(uuid), {
        format: 'uuid',
        description: "The CMO agent who runs the call (alias `agent_id`); without it, the site's active one.",
      }),
      include_context_summary: described(z.optional(z.boolean()), {
        description:
          "Show the site's context summary (tasks, requirements, campaigns, content, resource allocation) in the answer (alias `includeContextSummary`). Default true.",
      }),
    })
    .check(
      z.refine((request) => request.userId !== undefined || request.visitor_id !== undefined || request.lead_id !== undefined, {
        message: 'At least one of userId, visitor_id or lead_id is required',
        path: ['userId'],
      }),
    ),
  {
    id: 'StakeholderCoordinationRequest',
    description:
      'A stakeholder meeting to prepare, and the number to call. At least one of `userId`, `visitor_id` or `lead_id` is required. `null` counts as absent.',
  },
);

/**
 * Use case: validates a stakeholder coordination request and returns its
 * canonical shape. Every problem is INVALID_REQUEST; the message names the
 * first field at fault (`site_id: Required`, `phone_numbers.1: Invalid
 * phone number…`), `details` lists them all. Asynchronous: the first
 * request of an instance that lists a number reads the E.164 rule
 * (libphonenumber-js) first.
 */
export async function parseStakeholderCoordinationRequest(raw: unknown): Promise<StakeholderCoordinationRequest> {
  const body = normalizedBody(raw);
  requireSiteId(body);
  // Read first, so the parse itself stays synchronous (an async parse orders the output's keys as its checks settle).
  if (!e164Rule && listsPhoneNumbers(body)) await loadE164Rule();
  return canonical(requestSchema.safeParse(body));
}

/**
 * The same, at once, with the E.164 rule given: for a stored request, read
 * back by a worker that imports the rule (phone-number.ts) itself.
 */
export function readStakeholderCoordinationRequest(raw: unknown, rule: PhoneNumberRule): StakeholderCoordinationRequest {
  e164Rule ??= rule;
  const body = normalizedBody(raw);
  requireSiteId(body);
  return canonical(requestSchema.safeParse(body));
}

/** The body as an object under its canonical names (aliases mapped, nulls dropped). */
function normalizedBody(raw: unknown): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AppError('INVALID_REQUEST', 'The request body must be a JSON object.');
  }
  return normalizeAliases(raw as Record<string, unknown>);
}

/** True when the body lists a string where a number goes: the schema holds each to the E.164 rule. */
function listsPhoneNumbers(body: Record<string, unknown>): boolean {
  const numbers = body.phone_numbers;
  return Array.isArray(numbers) && numbers.some((value) => typeof value === 'string');
}

/** A missing site is named before anything else. */
function requireSiteId(body: Record<string, unknown>): void {
  if (body.site_id === undefined || body.site_id === '') {
    throw new AppError('INVALID_REQUEST', 'site_id: Required', [
      { code: 'invalid_type', message: 'Required', expected: 'string', path: ['site_id'] },
    ]);
  }
}

/** The parsed request in its canonical shape (defaults filled, absent fields dropped), or the INVALID_REQUEST it is. */
function canonical(parsed: z.core.util.SafeParseResult<z.output<typeof requestSchema>>): StakeholderCoordinationRequest {
  if (!parsed.success) {
    throw new AppError('INVALID_REQUEST', describeFirstIssue(parsed.error.issues), toIssueDetails(parsed.error.issues));
  }
  const { participants, meeting_agenda, phone_numbers, include_context_summary, ...rest } = parsed.data;
  const request: StakeholderCoordinationRequest = {
    ...rest,
    participants: participants ?? [],
    meeting_agenda: meeting_agenda ?? [],
    phone_numbers: phone_numbers ?? [],
    include_context_summary: include_context_summary ?? true,
  };
  for (const key of Object.keys(request) as (keyof StakeholderCoordinationRequest)[]) if (request[key] === undefined) delete request[key];
  return request;
}
