import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { maxWaitSecondsOf } from '../../catalogue/limits';
import { ROUTES, type RouteDefinition } from '../../catalogue/routes';
import { HTTP_STATUS_OF, type ErrorCode } from '../../platform/errors';
import { describeCodes, errorSchemaName } from './errors';
import { componentRef, HEADER, PARAMETER, SECURITY } from './components';

/**
 * How the API reference describes one route of the catalogue. Each feature
 * declares its routes' operations in its own `openapi.ts` with the helpers
 * below (one entry per route); infra/api-docs/operations.ts lists the
 * features. Documentation only: no function bundle imports these files.
 */
export interface DocumentedOperation {
  method: RouteDefinition['method'];
  path: string;
  /** The section of the reference it appears in. */
  tag: Tag;
  route: RouteConfig;
}

/**
 * A section of the reference (one per feature): its name and what it is about. Declared once per feature and given to each of its
 * operations.
 */
export interface Tag {
  name: string;
  /** One sentence. */
  description: string;
}

/** What every operation says of itself. */
export interface OperationBasics {
  method: RouteDefinition['method'];
  /** The catalogue's path template (`/api/commands/{id}`). */
  path: string;
  /** Stable, camelCase: the typed client and code generators name the call by it. */
  operationId: string;
  /** The section of the reference (one per feature). */
  tag: Tag;
  summary: string;
  /** Markdown. */
  description: string;
  /** The path parameters, one field each. */
  params?: DocumentedObject;
  /** The query's schema, as the function parses it (`zod` or `zod/mini`). */
  query?: DocumentedObject;
  /** Extra headers the route reads. */
  headers?: DocumentedObject;
}

/**
 * An object schema of either flavour of zod. The generator reads both (see
 * mini-schemas.ts, which infra/api-docs applies first); its types name the
 * chainable one only.
 */
export type DocumentedObject = z.ZodObject | z.core.$ZodObject;

/** A JSON request body. */
export interface JsonBody {
  /** The body's schema, as the function parses it (`zod` or `zod/mini`). */
  schema: z.ZodType | z.core.$ZodType;
  description?: string;
  /** A request that works against the demo data of `npm start`. */
  example?: unknown;
}

/** A JSON response: its body schema, and what to say of it. */
export interface JsonResponse {
  description: string;
  schema: z.ZodType;
  headers?: Record<string, { $ref: string }>;
  example?: unknown;
}

/** The answers to an operation, beyond its error codes. */
export type Answers = Record<number, JsonResponse | ResponseConfig>;

/** The codes a route can answer before or after its work, and those a command it started can end with. */
export interface ErrorCodes {
  /** Codes of the request itself (validation, checks), answered at once. */
  errors: readonly ErrorCode[];
  /** Codes a started command can end with; shown after `Prefer: wait=N`, with `Location`. */
  failures?: readonly ErrorCode[];
}

/** The HTTP method as the OpenAPI generator spells it. */
function lower(method: RouteDefinition['method']): RouteConfig['method'] {
  return method.toLowerCase() as RouteConfig['method'];
}

function isJsonResponse(answer: JsonResponse | ResponseConfig): answer is JsonResponse {
  return 'schema' in answer;
}

function responseOf(answer: JsonResponse | ResponseConfig): ResponseConfig {
  if (!isJsonResponse(answer)) return answer;
  return {
    description: answer.description,
    ...(answer.headers ? { headers: answer.headers } : {}),
    content: { 'application/json': { schema: answer.schema, ...(answer.example === undefined ? {} : { example: answer.example }) } },
  };
}

/**
 * The error answers of an operation, one per status: the status's envelope
 * (every code of that status, from the one table), described with the codes
 * this operation answers; `Location` and `Preference-Applied` where a
 * finished command's failure is among them.
 */
export function errorResponses(codes: ErrorCodes): Record<string, ResponseConfig> {
  const failures = new Set(codes.failures ?? []);
  const all = [...new Set([...codes.errors, ...failures])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of all) byStatus.set(HTTP_STATUS_OF[code], [...(byStatus.get(HTTP_STATUS_OF[code]) ?? []), code]);
  const responses: Record<string, ResponseConfig> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const statusCodes = byStatus.get(status)!;
    const afterWait = statusCodes.filter((code) => failures.has(code));
    const lines = [describeCodes(statusCodes)];
    if (afterWait.length > 0) {
      lines.push(
        '',
        `${afterWait.map((code) => `\`${code}\``).join(', ')}: the command's own failure, answered after \`Prefer: wait=N\` with \`Location\` (read it again with GET /api/commands/{id}).`,
      );
    }
    const headers = {
      ...(status === 405 ? { Allow: HEADER.allow } : {}),
      ...(afterWait.length > 0 ? { Location: HEADER.locationIfCommand, 'Preference-Applied': HEADER.preferenceApplied } : {}),
    };
    responses[String(status)] = {
      description: lines.join('\n'),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { 'application/json': { schema: componentRef('schemas', errorSchemaName(status)) } },
    };
  }
  return responses;
}

/** The tenant's request rate, after its key; API Gateway's throttle, in front of every route. */
const TOO_MANY_REQUESTS: ResponseConfig = {
  description:
    "`RATE_LIMITED`: the tenant is over one of its limits (its own, else the deployment's): its request rate (`requests_per_second`), " +
    "its commands in progress (`in_progress`), or this UTC month's model tokens or searches (`monthly_tokens`, `monthly_searches`); " +
    'nothing was done, and an Idempotency-Key sent with it stays free. `Retry-After` says when ' +
    "to send again, `details` which limit was hit (`limit`), what remains and when it resets. Or API Gateway's throttle of the route (per route " +
    'and environment), answered before any function runs with its own body `{"message": "Too Many Requests"}`: retry with back-off.',
  headers: { 'Retry-After': HEADER.retryAfter, 'RateLimit-Policy': HEADER.rateLimitPolicy, RateLimit: HEADER.rateLimit },
  content: {
    'application/json': {
      schema: {
        anyOf: [
          { type: 'object', properties: { message: { type: 'string', example: 'Too Many Requests' } }, required: ['message'] },
          componentRef('schemas', errorSchemaName(429)),
        ],
      },
    },
  },
};

/**
 * Every route may also answer an error this page does not list for it (431 on oversized headers, 405 for another method on its path):
 * always the envelope.
 */
const ANY_OTHER_ERROR: ResponseConfig = {
  description: 'Any other error, in the envelope with the status of its code (see the table in the introduction).',
  headers: { Allow: HEADER.allow },
  content: { 'application/json': { schema: componentRef('schemas', 'ErrorEnvelope') } },
};

function assemble(
  basics: OperationBasics,
  parts: {
    security: RouteConfig['security'];
    parameters?: RouteConfig['parameters'];
    body?: JsonBody;
    answers: Answers;
    codes: ErrorCodes;
  },
): DocumentedOperation {
  const request: NonNullable<RouteConfig['request']> = {
    ...(basics.params ? { params: basics.params as z.ZodObject } : {}),
    ...(basics.query ? { query: basics.query as z.ZodObject } : {}),
    ...(basics.headers ? { headers: basics.headers as z.ZodObject } : {}),
    ...(parts.body
      ? {
          body: {
            required: true,
            ...(parts.body.description ? { description: parts.body.description } : {}),
            content: {
              'application/json': {
                schema: parts.body.schema as z.ZodType,
                ...(parts.body.example === undefined ? {} : { example: parts.body.example }),
              },
            },
          },
        }
      : {}),
  };
  const responses: RouteConfig['responses'] = {};
  for (const [status, answer] of Object.entries(parts.answers)) responses[status] = responseOf(answer);
  Object.assign(responses, errorResponses(parts.codes));
  responses['429'] = TOO_MANY_REQUESTS;
  responses.default = ANY_OTHER_ERROR;
  return {
    method: basics.method,
    path: basics.path,
    tag: basics.tag,
    route: {
      method: lower(basics.method),
      path: basics.path,
      operationId: basics.operationId,
      tags: [basics.tag.name],
      summary: basics.summary,
      description: basics.description,
      security: parts.security,
      ...(parts.parameters?.length ? { parameters: parts.parameters } : {}),
      ...(Object.keys(request).length > 0 ? { request } : {}),
      responses,
    },
  };
}

/** Codes every keyed route can answer: the key (first), and a fault of the service. */
const KEYED_CODES: readonly ErrorCode[] = ['UNAUTHORIZED', 'SYSTEM_ERROR'];
/** Codes every route with a JSON body can answer before its own checks. */
const BODY_CODES: readonly ErrorCode[] = ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

/**
 * A route under /api: the API key first (401 whether or not the route
 * exists), then the route's own checks.
 */
export function apiOperation(
  basics: OperationBasics & ErrorCodes & { body?: JsonBody; answers: Answers; parameters?: RouteConfig['parameters'] },
): DocumentedOperation {
  return assemble(basics, {
    security: SECURITY.apiKey,
    ...(basics.parameters ? { parameters: basics.parameters } : {}),
    ...(basics.body ? { body: basics.body } : {}),
    answers: basics.answers,
    codes: {
      errors: [...KEYED_CODES, ...(basics.body ? BODY_CODES : []), ...basics.errors],
      ...(basics.failures ? { failures: basics.failures } : {}),
    },
  });
}

/** The longest `Prefer: wait` a route honours: its function's (below the function's timeout, at most 25 s). */
export function maxWaitOf(method: RouteDefinition['method'], path: string): number {
  const route = ROUTES.find((candidate) => candidate.method === method && candidate.path === path);
  if (!route) throw new Error(`${method} ${path} is not a route of the catalogue (shared/catalogue/routes.ts)`);
  return maxWaitSecondsOf(route.function);
}

/** What a POST that starts a command says of its answers. */
export interface CommandAnswers {
  /** `data` of the 202 answer (`command_id` and `status` included). */
  accepted: z.ZodType;
  /** The whole 200 body once the command completed within `Prefer: wait=N`. */
  completed: z.ZodType;
  /** Examples of both, as `npm start` answers them. */
  acceptedExample?: unknown;
  completedExample?: unknown;
}

/**
 * A POST that starts a command: `Idempotency-Key` and `Prefer: wait=N`
 * accepted; 202 with `Location` at once, or, after a wait, 200 with the
 * result or the error envelope of the command's failure (both with
 * `Location` and `Preference-Applied`).
 */
export function commandOperation(basics: OperationBasics & ErrorCodes & CommandAnswers & { body: JsonBody }): DocumentedOperation {
  const maxWait = maxWaitOf(basics.method, basics.path);
  return apiOperation({
    ...basics,
    errors: [...basics.errors, 'IDEMPOTENCY_CONFLICT'],
    parameters: [PARAMETER.idempotencyKey, { ...PARAMETER.prefer, description: preferDescription(maxWait, 'command') }],
    answers: {
      202: {
        description:
          'Accepted: the command is recorded and its first job queued (or, with an `Idempotency-Key` seen before with this body, the command that key made). ' +
          'Read it at `Location` (GET /api/commands/{id}).',
        headers: { Location: HEADER.location },
        schema: successEnvelope(basics.accepted),
        ...(basics.acceptedExample === undefined ? {} : { example: basics.acceptedExample }),
      },
      200: {
        description: `Completed within the \`Prefer: wait=N\` the request asked for (at most ${maxWait} s): the full result.`,
        headers: { Location: HEADER.location, 'Preference-Applied': HEADER.preferenceApplied },
        schema: basics.completed,
        ...(basics.completedExample === undefined ? {} : { example: basics.completedExample }),
      },
    },
  });
}

/** What `Prefer: wait=N` does on a route. */
export function preferDescription(maxWait: number, kind: 'command' | 'read'): string {
  const outcome =
    kind === 'command'
      ? 'then answers 200 with the result, or the error envelope of its failure (with `Preference-Applied: wait=N`); if the time runs out, the usual 202.'
      : 'then answers with `Preference-Applied: wait=N`; if the time runs out, the command as it is then (still 200).';
  return `\`wait=N\` (RFC 7240): wait up to N seconds (at most ${maxWait} here; more is capped) for the command to end, ${outcome} Absent or malformed: no wait.`;
}

/** `{success: true, data}`. */
export function successEnvelope(data: z.ZodType) {
  return z.object({ success: z.literal(true), data });
}

/** A route outside /api that needs no key (health, the reference itself). */
export function publicOperation(basics: OperationBasics & ErrorCodes & { answers: Answers }): DocumentedOperation {
  return assemble(basics, { security: SECURITY.none, answers: basics.answers, codes: { errors: basics.errors } });
}

/**
 * A route a provider calls, outside /api and without a key: its own check is
 * the provider's signature, a required header of `basics.headers`.
 */
export function webhookOperation(
  basics: OperationBasics & ErrorCodes & { answers: Answers; body: { contentType: string; schema: z.ZodType; description?: string } },
): DocumentedOperation {
  const operation = assemble(basics, { security: SECURITY.none, answers: basics.answers, codes: { errors: basics.errors } });
  operation.route.request = {
    ...operation.route.request,
    body: {
      required: true,
      ...(basics.body.description ? { description: basics.body.description } : {}),
      content: { [basics.body.contentType]: { schema: basics.body.schema } },
    },
  };
  return operation;
}

/** An event the service sends to a tenant's webhook endpoints: an entry of the document's `webhooks`. */
export interface DocumentedEvent {
  /** The event's `type` (`command.completed`). */
  type: string;
  tag: Tag;
  route: RouteConfig;
}

/** The section of the reference that lists the events. */
export const WEBHOOK_EVENTS_TAG: Tag = {
  name: 'Webhook events',
  description:
    "What the service POSTs to a tenant's webhook endpoints, signed with `Switchboard-Signature` (Stripe's scheme) and the Standard " +
    'Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`), from the same secret.',
};

/**
 * An event delivered to the tenant's endpoints (docs/webhooks.md "Events"):
 * a signed POST of `{id: "evt_…", type, created_at, data}`; any 2xx answer
 * acknowledges it, anything else is retried.
 */
export function webhookEvent(doc: { type: string; summary: string; description: string; data: z.ZodType }): DocumentedEvent {
  const payload = z.object({
    id: z.string().meta({
      description: "The event's id: the same on every delivery of it (de-duplicate by it).",
      example: 'evt_01a2089c61b9762880f6bfab1a2ceaa4',
    }),
    type: z.literal(doc.type),
    created_at: z.string().meta({ format: 'date-time' }),
    data: doc.data,
  });
  return {
    type: doc.type,
    tag: WEBHOOK_EVENTS_TAG,
    route: {
      method: 'post',
      path: doc.type,
      operationId: `on${doc.type.replace(/(^|[._])(\w)/g, (_, _sep: string, letter: string) => letter.toUpperCase())}`,
      tags: [WEBHOOK_EVENTS_TAG.name],
      summary: doc.summary,
      description: doc.description,
      security: SECURITY.none,
      request: {
        headers: z.object({
          'Switchboard-Signature': z.string().meta({
            description:
              '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint\'s secret>` (one `v1` per secret while a rotated one still signs, newest first): ' +
              'check it against the body exactly as received, and the age of `t` (five minutes at most), before trusting the body.',
            example: 't=1763906531,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
          }),
          'webhook-id': z.string().meta({
            description: "Standard Webhooks: the payload's `id` (the same on every delivery of the event).",
            example: 'evt_01a2089c61b9762880f6bfab1a2ceaa4',
          }),
          'webhook-timestamp': z
            .string()
            .meta({ description: 'Standard Webhooks: the unix seconds it was signed at.', example: '1763906531' }),
          'webhook-signature': z.string().meta({
            description:
              'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the bytes the ' +
              "secret's part after `whsec_` decodes to; one `v1,…` per signing secret, space-separated. The `standardwebhooks` and " +
              "`svix` libraries verify it with the endpoint's secret as is.",
            example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
          }),
          'Switchboard-Event-Id': z.string().meta({ description: "The payload's `id`.", example: 'evt_01a2089c61b9762880f6bfab1a2ceaa4' }),
          'Switchboard-Event-Type': z.literal(doc.type).meta({ description: "The payload's `type`." }),
          'Switchboard-Delivery-Attempt': z
            .string()
            .meta({ description: 'The attempt this request is (1 for the first; retries and redeliveries count on).', example: '1' }),
        }),
        body: { required: true, content: { 'application/json': { schema: payload } } },
      },
      responses: {
        '2XX': { description: 'Delivered: any 2xx acknowledges the event; anything else (or no answer in time) is retried with back-off.' },
      },
    },
  };
}
