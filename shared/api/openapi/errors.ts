import * as z from 'zod';
import { HTTP_STATUS_OF, type ErrorCode } from '../../platform/errors';

/**
 * The error envelope as the API reference shows it, built from the one
 * code → status table (shared/platform/errors.ts): a code added there
 * appears here, under its status, without another edit. Documentation only:
 * no function bundle imports this folder.
 */

/** What each code means to a caller; the reference lists it beside the code. */
export const ERROR_CODE_MEANINGS: Readonly<Record<ErrorCode, string>> = {
  INVALID_REQUEST: 'The body is missing or not JSON, or a field (or header) is missing or malformed.',
  INVALID_INPUT: 'An id of the request (a site, a lead, a user, an agent) is not a UUID.',
  INVALID_PHONE_NUMBER: '`phone_number` is not a phone number (7 to 15 digits).',
  INVALID_FOLLOW_UP_TYPE: '`followUpType` is not one of the follow-up types.',
  VALIDATION_ERROR: 'A deep research request is malformed (its body not JSON included); `details` lists every problem.',
  MISSING_QUERY: '`query` is missing or blank for `general_news` or `custom_search`.',
  INVALID_OPERATION: '`operation_type` is not one of the operations.',
  NO_CHANNELS_CONFIGURED: 'The site has neither email nor messaging_app enabled.',
  NO_VALID_CHANNELS_FOR_LEAD:
    "None of the site's channels reaches the lead; `details` is `{configured_channels, lead_has_email, lead_has_phone}`.",
  NO_VALID_CHANNELS: 'No channel can carry the follow-up.',
  UNAUTHORIZED: 'No API key, an unknown, revoked or expired one, or two different keys in `Authorization` and `x-api-key`.',
  FORBIDDEN: "The site exists but is not among the key's sites; on a webhook, the provider's signature does not match.",
  SITE_NOT_FOUND: 'No site has this id.',
  LEAD_NOT_FOUND: 'The lead is not a lead of the site.',
  USER_NOT_FOUND: 'The user is not a user of the site.',
  AGENT_NOT_FOUND: 'The agent is not an agent of the site, or the site has no active agent of the role.',
  COMMAND_NOT_FOUND: "No command of the key's tenant has this id (another tenant's, an erased or an expired command included).",
  NOT_FOUND: 'No route has this path, or an item the request names (a follow-up, a visitor, a conversation) does not exist.',
  METHOD_NOT_ALLOWED: 'The path exists with other methods; the `Allow` header names them.',
  IDEMPOTENCY_CONFLICT: 'The `Idempotency-Key` was used within 24 hours with another body.',
  INVALID_TRANSITION: 'The item cannot move from its current state to the one asked for.',
  PAYLOAD_TOO_LARGE: 'The body is larger than 256 KiB.',
  UNSUPPORTED_MEDIA_TYPE:
    'The request has a body whose `Content-Type` is not `application/json` (a `charset` of UTF-8 and `application/*+json` are taken).',
  HEADERS_TOO_LARGE: 'The request headers are too large.',
  RATE_LIMITED: 'Too many requests; retry after a pause.',
  SALES_COMMAND_FAILED: 'The sales agent could not write the follow-ups (the model kept failing); retrying may succeed.',
  NO_CONTENT_GENERATED: 'The written copy failed its checks even after a repair; retrying may succeed.',
  SEARCH_FAILED: 'Every search provider failed; `details` names each provider and its reason.',
  SYSTEM_ERROR: 'An unexpected fault (the cause is logged, never shown); retrying may succeed.',
};

/** Every code, in the table's order. */
export const ERROR_CODES = Object.keys(HTTP_STATUS_OF) as ErrorCode[];

/** The codes answered with `status`, in the table's order. */
export function codesOfStatus(status: number): ErrorCode[] {
  return ERROR_CODES.filter((code) => HTTP_STATUS_OF[code] === status);
}

/** Every status some code is answered with, ascending. */
export function errorStatuses(): number[] {
  return [...new Set(Object.values(HTTP_STATUS_OF))].sort((a, b) => a - b);
}

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  405: 'MethodNotAllowedError',
  409: 'ConflictError',
  413: 'PayloadTooLargeError',
  415: 'UnsupportedMediaTypeError',
  429: 'TooManyRequestsError',
  431: 'HeadersTooLargeError',
  500: 'ServerError',
};

/** The component name of the envelope of a status's codes (`NotFoundError`, or `Error418` for a status without a name). */
export function errorSchemaName(status: number): string {
  return STATUS_NAMES[status] ?? `Error${status}`;
}

export const issueDetailSchema = z
  .object({
    code: z.string().meta({
      description: 'The kind of problem, as zod names it (`invalid_type`, `too_big`, `invalid_format`, `custom`, ...).',
      example: 'invalid_type',
    }),
    message: z.string().optional().meta({ example: 'Required' }),
    expected: z.string().optional(),
    received: z.string().optional(),
    path: z.array(z.string()).meta({ description: 'Where in the body (or header) the problem is.', example: ['leadId'] }),
  })
  .meta({ id: 'IssueDetail', description: 'One problem found in the request.' });

export const noValidChannelsDetailsSchema = z
  .object({
    configured_channels: z.array(z.string()).meta({ example: ['email'] }),
    lead_has_email: z.boolean(),
    lead_has_phone: z.boolean(),
    refused_channels: z
      .array(
        z.object({
          channel: z.string().meta({ example: 'email' }),
          reason: z.literal('unsubscribed'),
          at: z.string().meta({ description: 'When the lead unsubscribed (UTC).', example: '2026-11-24T09:12:00.000Z' }),
        }),
      )
      .optional()
      .meta({ description: "The channels that reach the lead but are closed to your tenant's follow-ups: the lead unsubscribed." }),
  })
  .meta({
    id: 'NoValidChannelsDetails',
    description: 'The `details` of NO_VALID_CHANNELS_FOR_LEAD: what the site offers and what the lead can be reached by.',
  });

const count = (description: string) => z.number().int().min(0).optional().meta({ description });

export const rateLimitDetailsSchema = z
  .object({
    limit: z.enum(['requests_per_second', 'in_progress', 'monthly_tokens', 'monthly_searches']).meta({ description: 'The limit hit.' }),
    remaining: z.number().int().min(0).meta({ description: 'What is left of it now (0).', example: 0 }),
    retry_after_seconds: z.number().int().min(1).meta({ description: 'As `Retry-After`: when to try again.', example: 1 }),
    resets_at: z.string().meta({ description: 'When the limit lets a request through again (UTC).', example: '2026-11-26T18:00:01.000Z' }),
    requests_per_second: z.number().positive().optional().meta({ description: "The tenant's request rate (`requests_per_second`)." }),
    burst: count("The tenant's burst (`requests_per_second`)."),
    in_progress: count('How many commands the tenant may have in progress (`in_progress`).'),
    monthly_tokens: count("The tenant's monthly cap on model tokens (`monthly_tokens`)."),
    monthly_searches: count("The tenant's monthly cap on searches (`monthly_searches`)."),
    used: count('What the tenant used this month (the monthly caps).'),
  })
  .meta({
    id: 'RateLimitDetails',
    description: 'The `details` of RATE_LIMITED: the limit hit, its setting, what remains and when to come back.',
  });

const detailsSchema = z
  .union([z.array(issueDetailSchema), noValidChannelsDetailsSchema, rateLimitDetailsSchema])
  .optional()
  .meta({
    description:
      'The problems found (zod-style issues), or an object: for NO_VALID_CHANNELS_FOR_LEAD what reaches the lead, for RATE_LIMITED the limit.',
  });

const processingTime = z
  .number()
  .int()
  .min(0)
  .optional()
  .meta({ description: "Deep research only: milliseconds from the request (or the command's creation) to this answer." });

/** The envelope of some codes, as the component `id`. */
function envelopeOf(codes: readonly ErrorCode[], id: string, description: string) {
  return z
    .object({
      success: z.literal(false),
      error: z.object({
        code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
        message: z.string().meta({ description: 'A sentence for people; it never holds a secret or a stack trace.' }),
        details: detailsSchema,
      }),
      processing_time_ms: processingTime,
    })
    .meta({ id, description });
}

/** The envelope of each status, holding exactly that status's codes. */
export const ERROR_ENVELOPES: ReadonlyMap<number, z.ZodType> = new Map(
  errorStatuses().map((status) => [
    status,
    envelopeOf(
      codesOfStatus(status),
      errorSchemaName(status),
      `The error envelope answered with HTTP ${status}: its codes are ${codesOfStatus(status).join(', ')}.`,
    ),
  ]),
);

/** `{success: false, error: {code, message, details?}}` with any code: one of the envelopes of each status. */
export const errorEnvelopeSchema = z.union([...ERROR_ENVELOPES.values()]).meta({
  id: 'ErrorEnvelope',
  description:
    'Every failure of every route: the code is stable and decides the HTTP status; 400 codes are final, 500 codes are worth retrying.',
});

/** A Markdown list of codes with their meanings. */
export function describeCodes(codes: readonly ErrorCode[]): string {
  return codes.map((code) => `- \`${code}\`: ${ERROR_CODE_MEANINGS[code]}`).join('\n');
}

/** `{code, message, details?}`: a failed command's `error`, or a warning. */
export const errorInfoSchema = z
  .object({
    code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    details: detailsSchema,
  })
  .meta({
    id: 'ErrorInfo',
    description: 'Why a command failed (its `error`), or what went wrong without failing it (an item of `warnings`).',
  });
