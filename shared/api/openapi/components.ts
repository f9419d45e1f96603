import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type * as z from 'zod';
import { MAX_WAIT_SECONDS } from '../../catalogue/limits';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency-key';
import { ERROR_ENVELOPES, errorEnvelopeSchema, issueDetailSchema, noValidChannelsDetailsSchema } from './errors';

/** The component kinds operations refer to. */
type ComponentKind = 'schemas' | 'parameters' | 'headers' | 'securitySchemes' | 'responses';

/** A reference to a component of the document. */
export function componentRef(kind: ComponentKind, name: string): { $ref: string } {
  return { $ref: `#/components/${kind}/${name}` };
}

/** Response headers, by their use. */
export const HEADER = {
  location: componentRef('headers', 'Location'),
  locationIfCommand: componentRef('headers', 'LocationOfFailedCommand'),
  preferenceApplied: componentRef('headers', 'PreferenceApplied'),
  allow: componentRef('headers', 'Allow'),
  retryAfter: componentRef('headers', 'RetryAfter'),
  rateLimitPolicy: componentRef('headers', 'RateLimitPolicy'),
  rateLimit: componentRef('headers', 'RateLimit'),
} as const;

/** Request header parameters shared by routes. */
export const PARAMETER = {
  idempotencyKey: componentRef('parameters', 'IdempotencyKey'),
  prefer: componentRef('parameters', 'Prefer'),
} as const;

/** Security requirements: a key in either header, or none. */
export const SECURITY = {
  apiKey: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
  none: [],
} as const satisfies Record<string, { [scheme: string]: string[] }[]>;

/**
 * Registers what operations refer to: the security schemes (the key as
 * `Authorization: Bearer` or `x-api-key`, as shared/access/authenticate.ts
 * reads it), the shared headers and parameters, and the error envelopes
 * (one per status, each with its codes), whose schemas it returns: they
 * carry their component names (`.meta({id})`) and go to the generator beside
 * the registry's definitions.
 */
export function registerComponents(registry: OpenAPIRegistry): z.ZodType[] {
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description:
      '`Authorization: Bearer KEY`. A key (`sbk_…`) belongs to one tenant and covers a list of its sites; ' +
      '`npm start` prints one, `npm run keys` makes more. Either header works; both at once must carry the same key.',
  });
  registry.registerComponent('securitySchemes', 'apiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: '`x-api-key: KEY`: the same key as `Authorization: Bearer KEY`.',
  });

  registry.registerComponent('headers', 'Location', {
    description: 'Where the command can be read: `/api/commands/{id}`.',
    required: true,
    schema: { type: 'string', example: '/api/commands/01a2089c-61b9-7628-80f6-bfab1a2ceaa4' },
  });
  registry.registerComponent('headers', 'LocationOfFailedCommand', {
    description: "Present when the error is a finished command's failure (after `Prefer: wait=N`): where the command can be read.",
    schema: { type: 'string', example: '/api/commands/01a2089c-61b9-7628-80f6-bfab1a2ceaa4' },
  });
  registry.registerComponent('headers', 'PreferenceApplied', {
    description:
      '`wait=N` when the answer waited for the command to end (RFC 7240); absent when no wait was asked for or the time ran out.',
    schema: { type: 'string', example: 'wait=20' },
  });
  registry.registerComponent('headers', 'Allow', {
    description: 'On 405 METHOD_NOT_ALLOWED: the methods the path offers.',
    schema: { type: 'string', example: 'GET, HEAD' },
  });

  registry.registerComponent('headers', 'RetryAfter', {
    description: 'On 429 RATE_LIMITED: seconds until the tenant may send again.',
    schema: { type: 'integer', minimum: 1, example: 1 },
  });
  registry.registerComponent('headers', 'RateLimitPolicy', {
    description:
      "The tenant's request rate (IETF RateLimit fields), on every answer to a tenant held to one: `q` requests at once, refilled in `w` s.",
    schema: { type: 'string', example: '"requests";q=10;w=2' },
  });
  registry.registerComponent('headers', 'RateLimit', {
    description: 'What is left of it: `r` more requests at once now, the bucket full again in `t` s.',
    schema: { type: 'string', example: '"requests";r=7;t=1' },
  });

  registry.registerComponent('parameters', 'IdempotencyKey', {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: within 24 hours, the same key (per tenant and operation) with the same body answers with the command the first request made, ' +
      'and queues nothing again; the same key with another body answers 409 IDEMPOTENCY_CONFLICT. A retry after an erased command runs the request again. ' +
      `At most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters (longer: the route's 400 validation code).`,
    schema: { type: 'string', maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, example: 'lead-42-nov' },
  });
  registry.registerComponent('parameters', 'Prefer', {
    name: 'Prefer',
    in: 'header',
    required: false,
    description: `\`wait=N\` (RFC 7240): wait up to N seconds (at most ${MAX_WAIT_SECONDS}) for the command to end. Absent or malformed: no wait.`,
    schema: { type: 'string', example: 'wait=20' },
  });

  return [issueDetailSchema, noValidChannelsDetailsSchema, ...ERROR_ENVELOPES.values(), errorEnvelopeSchema];
}
