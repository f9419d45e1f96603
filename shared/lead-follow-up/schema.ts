import * as z from 'zod/mini';
import { described } from '../platform/described';
import '../platform/zod-messages';
import { DEMO_LEAD_ID, DEMO_SITE_ID } from '../api/examples';
import { AppError } from '../platform/errors';
import { isUuid } from '../platform/ids';
import { cleanText } from '../platform/text';
import { describeFirstIssue, toIssueDetails } from '../platform/validation';
import { MAX_FOLLOW_UP_INTERVAL_LENGTH, parseFollowUpInterval } from './interval';
import { aliasNormaliser } from '../platform/field-aliases';
import { cleanedText, RAW_SLACK } from '../platform/text-field';
import { firstUnique, newestInteractions } from './writing-limits';
import { MAX_SEQUENCE, MIN_SEQUENCE, OUTPUTS, type LeadFollowUpOutput } from './vocabulary';

/** One earlier touch point with the lead, as the caller reports it. */
export interface GivenInteraction {
  date: string;
  type: string;
  summary: string;
}

/** Context the caller adds about the lead. Its email and phone are never used to reach the lead. */
export interface LeadData {
  name?: string;
  company?: string;
  position?: string;
  email?: string;
  phone?: string;
  pain_points?: string[];
  budget_range?: string;
}

/**
 * The validated request in its one canonical shape. It is stored on the
 * command and travels in the sales job; parsing it again gives it back
 * unchanged, so API and producer jobs share one schema.
 */
export interface LeadFollowUpRequest {
  siteId: string;
  leadId: string;
  userId?: string;
  agentId?: string;
  visitorId?: string;
  followUpType?: string;
  leadStage?: string;
  previousInteractions?: GivenInteraction[];
  leadData?: LeadData;
  productInterest?: string[];
  followUpInterval?: string;
  phone_number?: string;
  output: LeadFollowUpOutput;
}

/** Accepted spellings of each field: the canonical name first. */
const ALIASES: readonly (readonly [string, ...string[]])[] = [
  ['siteId', 'site_id'],
  ['leadId', 'lead_id'],
  ['userId', 'user_id'],
  ['agentId', 'agent_id'],
  ['visitorId', 'visitor_id'],
  ['followUpType', 'follow_up_type'],
  ['leadStage', 'lead_stage'],
  ['previousInteractions', 'previous_interactions'],
  ['leadData', 'lead_data'],
  ['productInterest', 'product_interest'],
  ['followUpInterval', 'follow_up_interval'],
  ['phone_number', 'phoneNumber'],
];

/** The canonical id fields; their aliases name the same field. */
const ID_FIELDS: ReadonlySet<string> = new Set(['siteId', 'leadId', 'userId', 'agentId', 'visitorId']);

/** Maps alias spellings onto canonical names and drops nulls (built once: this runs on every request). */
const normalizeAliases = aliasNormaliser(ALIASES, ID_FIELDS);

const text = cleanedText;

const interactionSchema = z.pipe(
  z
    .object({
      date: text(64),
      type: text(64),
      summary: z.optional(text(5_000)),
      content: z.optional(text(5_000)),
    })
    .check(z.refine((item) => Boolean(item.summary || item.content), { message: 'summary or content is required', path: ['summary'] })),
  z.transform((item): GivenInteraction => ({ date: item.date, type: item.type, summary: (item.summary || item.content)! })),
);

const leadDataSchema = z.object({
  name: z.optional(text(500)),
  company: z.optional(text(500)),
  position: z.optional(text(500)),
  email: z.optional(text(320)),
  phone: z.optional(text(32)),
  pain_points: z.optional(
    z.pipe(
      z.union([z.array(text(1_000)).check(z.maxLength(50)), text(1_000)]),
      z.transform((value) => (Array.isArray(value) ? value : [value])),
    ),
  ),
  budget_range: z.optional(text(200)),
});

const MIN_PHONE_DIGITS = 7;
const MAX_PHONE_DIGITS = 15;
/** Longest phone number read (15 digits with generous separators); longer text is refused before any pattern runs. */
export const MAX_PHONE_LENGTH = 32;

/** Present and not empty: a missing id is a malformed request, a wrong one is INVALID_INPUT. */
const requiredPresence = z.unknown().check(z.refine((value) => value !== undefined && value !== '', { message: 'Required' }));

/**
 * Stage 1: the body's structure, under its camelCase names (each alias is
 * named in its field's description). Ids are only required to be present
 * here; `followUpType` and `phone_number` are checked later, by the rules
 * their descriptions state.
 */
export const structureSchema = z.object({
  siteId: requiredPresence,
  leadId: requiredPresence,
  userId: z.optional(z.unknown()),
  agentId: z.optional(z.unknown()),
  visitorId: z.optional(z.unknown()),
  followUpType: described(z.optional(text(64)), {
    description: 'The follow-up wanted first (alias `follow_up_type`); any other value answers 400 INVALID_FOLLOW_UP_TYPE.',
  }),
  leadStage: described(z.optional(text(64)), {
    description: 'Where the lead is in the funnel (alias `lead_stage`); a sequence has 3 items early, 5 late, 4 otherwise.',
    example: 'qualified',
  }),
  previousInteractions: described(z.optional(z.array(interactionSchema).check(z.maxLength(100))), {
    description:
      "Earlier touch points (alias `previous_interactions`); `content` is accepted for `summary`. The writer sees the newest of them with the lead's own (see `interactions` in the answer).",
    example: [{ date: '2026-11-02', type: 'demo', summary: 'Asked about group bookings' }],
  }),
  leadData: described(z.optional(leadDataSchema), {
    description:
      "Context about the lead (alias `lead_data`). It never replaces the stored email or phone: only the stored lead's contact data is used to reach them.",
  }),
  productInterest: described(z.optional(z.array(text(500)).check(z.maxLength(50))), {
    description: 'Products the lead showed interest in (alias `product_interest`).',
    example: ['booking calendar'],
  }),
  followUpInterval: described(
    z.optional(
      text(MAX_FOLLOW_UP_INTERVAL_LENGTH).check(
        z.refine((value) => parseFollowUpInterval(value) !== undefined, {
          message: 'Use a duration such as "3 days", "2 weeks" or "P3D" (1 hour to 365 days)',
        }),
      ),
    ),
    {
      description: `Time between the items of a sequence (alias \`follow_up_interval\`): "3 days", "2 weeks", "P3D"; 1 hour to 365 days, at most ${MAX_FOLLOW_UP_INTERVAL_LENGTH} characters. Default 3 days.`,
      example: '2 weeks',
    },
  ),
  phone_number: described(z.optional(z.unknown()), {
    description: `A number for the messaging app (alias \`phoneNumber\`): ${MIN_PHONE_DIGITS} to ${MAX_PHONE_DIGITS} digits, with \`+\`, spaces, dots, dashes or parentheses; else 400 INVALID_PHONE_NUMBER.`,
    example: '+1 415 555 0123',
  }),
  output: described(z.optional(z.enum(OUTPUTS)), {
    description:
      `\`channel_messages\`: one ready-to-send message per channel that reaches the lead; \`follow_up_sequence\`: ${MIN_SEQUENCE} to ${MAX_SEQUENCE} scheduled follow-ups, saved. ` +
      "Default: the deployment's LEAD_FOLLOW_UP_OUTPUT (`channel_messages`).",
  }),
});

/**
 * A UUID, in lower case: UUIDs compare case-insensitively (RFC 9562), so an
 * upper-case id names the same site, lead or command as its lower-case form.
 */
export const uuidSchema = z.pipe(
  z.string().check(z.refine(isUuid, { message: 'Invalid UUID' })),
  z.transform((value) => value.toLowerCase()),
);

/** Stage 2: every id given is a UUID. */
export const idsSchema = z.object({
  siteId: described(uuidSchema, { format: 'uuid', description: 'The site (alias `site_id`).', example: DEMO_SITE_ID }),
  leadId: described(uuidSchema, { format: 'uuid', description: 'A lead of the site (alias `lead_id`).', example: DEMO_LEAD_ID }),
  userId: described(z.optional(uuidSchema), {
    format: 'uuid',
    description: 'A user of the site the follow-up is written for (alias `user_id`).',
  }),
  agentId: described(z.optional(uuidSchema), {
    format: 'uuid',
    description: "The sales agent who writes (alias `agent_id`); without it, the site's first active sales agent.",
  }),
  visitorId: described(z.optional(uuidSchema), {
    format: 'uuid',
    description: 'The visitor the lead came from (alias `visitor_id`).',
  }),
});

/** True for a phone number a message can be sent to: 7 to 15 digits, with the usual separators only. */
export function isValidPhoneNumber(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length > MAX_PHONE_LENGTH || !/^\+?[\d\s().-]+$/.test(trimmed)) return false;
  const digits = trimmed.replace(/\D/g, '').length;
  return digits >= MIN_PHONE_DIGITS && digits <= MAX_PHONE_DIGITS;
}

/**
 * Validates a lead follow-up request (HTTP body or a producer job's
 * `request`) and returns its canonical shape. Checks, in the issue's order:
 * structure (INVALID_REQUEST), ids (INVALID_INPUT), phone_number
 * (INVALID_PHONE_NUMBER). `defaultOutput` is the deployment's
 * LEAD_FOLLOW_UP_OUTPUT.
 */
export function parseLeadFollowUpRequest(raw: unknown, defaultOutput: LeadFollowUpOutput): LeadFollowUpRequest {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AppError('INVALID_REQUEST', 'The request body must be a JSON object.');
  }
  const body = normalizeAliases(raw as Record<string, unknown>);

  const structure = structureSchema.safeParse(body);
  if (!structure.success) {
    throw new AppError('INVALID_REQUEST', describeFirstIssue(structure.error.issues), toIssueDetails(structure.error.issues));
  }
  const ids = idsSchema.safeParse(structure.data);
  if (!ids.success) {
    throw new AppError('INVALID_INPUT', describeFirstIssue(ids.error.issues), toIssueDetails(ids.error.issues));
  }
  const given = structure.data.phone_number;
  const phone = typeof given === 'string' && given.length <= MAX_PHONE_LENGTH + RAW_SLACK ? cleanText(given).trim() : given;
  if (phone !== undefined && (typeof phone !== 'string' || !isValidPhoneNumber(phone))) {
    throw new AppError(
      'INVALID_PHONE_NUMBER',
      `phone_number must be a phone number with ${MIN_PHONE_DIGITS} to ${MAX_PHONE_DIGITS} digits.`,
      [{ code: 'invalid_format', message: 'Invalid phone number', path: ['phone_number'] }],
    );
  }

  const { siteId: _s, leadId: _l, userId: _u, agentId: _a, visitorId: _v, phone_number: _p, output, ...rest } = structure.data;
  return dropUndefined({
    ...ids.data,
    ...rest,
    ...writtenFrom(rest),
    ...(typeof phone === 'string' ? { phone_number: phone } : {}),
    output: output ?? defaultOutput,
  }) as unknown as LeadFollowUpRequest;
}

/**
 * The lists of the request as far as a writer can read them (WRITING_LIMITS
 * and the history window, which cut the same way when the context is
 * built), so the command keeps no more of them than is used: the newest
 * given interactions, the first pain points and product interests.
 */
function writtenFrom(request: Pick<z.infer<typeof structureSchema>, 'previousInteractions' | 'leadData' | 'productInterest'>) {
  const { previousInteractions, leadData, productInterest } = request;
  return {
    ...(previousInteractions ? { previousInteractions: newestInteractions(previousInteractions) } : {}),
    ...(leadData?.pain_points ? { leadData: { ...leadData, pain_points: firstUnique(leadData.pain_points) } } : {}),
    ...(productInterest ? { productInterest: firstUnique(productInterest) } : {}),
  };
}

function dropUndefined(value: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (value[key] !== undefined) kept[key] = value[key];
  return kept;
}
