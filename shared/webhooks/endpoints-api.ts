import type * as z from 'zod/mini';
import type { Principal } from '../access/api-keys';
import type { Clock } from '../platform/clock';
import { AppError, type IssueDetail } from '../platform/errors';
import { jsonResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';
import { shownId } from '../platform/shown';
import { onFirstUse } from '../platform/memo';
import { cleanText } from '../platform/text';
import { describeFirstIssue, toIssueDetails } from '../platform/validation';
import { MAX_ENDPOINTS_PER_TENANT, type EndpointStore, type WebhookEndpoint } from './endpoint-store';
import { EndpointUrlError, type EndpointUrlPolicy } from './endpoint-url-policy';
import { ALL_EVENTS, EVENT_TYPES } from './event-types';
import { ENDPOINT_ID_PATTERN, newEndpointId, newSigningSecret } from './ids';
import { endpointView } from './presenter';

/**
 * Every input error of the webhook routes answers 400 VALIDATION_ERROR
 * (never INVALID_REQUEST): these routes are new, and VALIDATION_ERROR is the
 * code of the newest operation (deep research) and of the service's own
 * administration (tenant ids); INVALID_REQUEST stays the code the lead
 * follow-up clients already rely on. A missing or unknown endpoint, or
 * another tenant's, answers 404 NOT_FOUND.
 */
export const WEBHOOK_VALIDATION_CODE = 'VALIDATION_ERROR' as const;

/** What the endpoint routes work with. */
export interface EndpointsApiDependencies {
  endpoints: EndpointStore;
  clock: Clock;
  /** WEBHOOK_ALLOW_LOOPBACK, and the lookup (tests inject one). */
  urlPolicy: EndpointUrlPolicy;
}

function invalid(message: string, details?: IssueDetail[]): AppError {
  return new AppError(WEBHOOK_VALIDATION_CODE, message, details);
}

/** The body schemas, imported once by the first request that has a body (a failed import is tried again by the next). */
const endpointBodies = onFirstUse(() => import('./endpoint-bodies'));

function parseBody<T>(schema: z.ZodMiniType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalid(describeFirstIssue(parsed.error.issues), toIssueDetails(parsed.error.issues));
  return parsed.data;
}

/** The tenant's endpoint named by a path id, or 404 NOT_FOUND (a malformed id, another tenant's, a deleted one: all alike). */
export async function endpointFor(
  endpoints: Pick<EndpointStore, 'get'>,
  principal: Principal,
  id: string | undefined,
): Promise<WebhookEndpoint> {
  const notFound = () =>
    new AppError('NOT_FOUND', id ? `Webhook endpoint ${shownId(id)} was not found.` : 'No webhook endpoint id was given.');
  if (!id || !ENDPOINT_ID_PATTERN.test(id)) throw notFound();
  const endpoint = await endpoints.get(principal.tenantId, id);
  if (!endpoint) throw notFound();
  return endpoint;
}

/**
 * Use case: registers an endpoint for the caller's tenant. The URL must be
 * https to a host whose every address is public (WEBHOOK_ALLOW_LOOPBACK
 * also admits http and https on loopback, for `npm start`); it is resolved
 * now and again before each delivery. `events` defaults to every type
 * (`["*"]`). Answers 201 with the endpoint and its signing secret, shown
 * this once.
 */
export async function registerEndpoint(deps: EndpointsApiDependencies, principal: Principal, body: unknown): Promise<HttpResult> {
  const request = parseBody((await endpointBodies()).registrationSchema, body);
  await checkUrl(deps, request.url);
  const now = deps.clock.now();
  const at = new Date(now).toISOString();
  const description = request.description === undefined ? undefined : cleanText(request.description).trim();
  const secret = newSigningSecret();
  const endpoint: WebhookEndpoint = {
    id: newEndpointId(),
    tenant_id: principal.tenantId,
    url: request.url,
    events: normalizedEvents(request.events),
    ...(description ? { description } : {}),
    secret,
    created_at: at,
    updated_at: at,
  };
  if (!(await deps.endpoints.create(endpoint))) {
    throw invalid(`A tenant may register at most ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints; delete one first.`, [
      { code: 'too_big', message: `At most ${MAX_ENDPOINTS_PER_TENANT} endpoints`, path: [] },
    ]);
  }
  return jsonResponse(201, { success: true, data: endpointView(endpoint, now, secret) });
}

/** The URL checks, imported once by the first request that needs them (a failed import is tried again by the next). */
const endpointUrlChecks = onFirstUse(() => import('./endpoint-url'));

/**
 * The URL checked as every endpoint's is: its form, then its host resolved now (400 on `url` otherwise). The checks (and
 * ipaddr.js) are read by the first request that registers or changes a URL: listing, showing or deleting needs none.
 */
async function checkUrl(deps: Pick<EndpointsApiDependencies, 'urlPolicy'>, text: string): Promise<void> {
  const { parseEndpointUrl, resolveEndpointAddress } = await endpointUrlChecks();
  try {
    await resolveEndpointAddress(parseEndpointUrl(text, deps.urlPolicy), deps.urlPolicy);
  } catch (error) {
    if (error instanceof EndpointUrlError)
      throw invalid(`url: ${error.message}`, [{ code: 'invalid_url', message: error.message, path: ['url'] }]);
    throw error;
  }
}

/**
 * Use case: `PATCH /api/webhooks/{id}` changes the fields given (at least one): `url` (checked as at registration), `events`,
 * `description` (blank removes it), `disabled`. Enabling a disabled endpoint resumes it with new events only. Answers 200 with the
 * endpoint, never its secret; bad input changes nothing.
 */
export async function updateEndpoint(
  deps: EndpointsApiDependencies,
  principal: Principal,
  id: string | undefined,
  body: unknown,
): Promise<HttpResult> {
  const request = parseBody((await endpointBodies()).updateSchema, body);
  const endpoint = await endpointFor(deps.endpoints, principal, id);
  if (request.url !== undefined) await checkUrl(deps, request.url);
  const description = request.description === undefined ? undefined : cleanText(request.description).trim() || null;
  const now = deps.clock.now();
  const updated = await deps.endpoints.update(
    principal.tenantId,
    endpoint.id,
    {
      ...(request.url === undefined ? {} : { url: request.url }),
      ...(request.events === undefined ? {} : { events: normalizedEvents(request.events) }),
      ...(description === undefined ? {} : { description }),
      ...(request.disabled === undefined ? {} : { disabled: request.disabled }),
    },
    now,
  );
  if (!updated) throw new AppError('NOT_FOUND', `Webhook endpoint ${endpoint.id} was not found.`);
  return jsonResponse(200, { success: true, data: endpointView(updated, now) });
}

/** `["*"]` for every type (also when `*` is among them); otherwise each type once, in the catalogue's order. */
function normalizedEvents(events: readonly string[] | undefined): string[] {
  if (!events || events.includes(ALL_EVENTS)) return [ALL_EVENTS];
  return EVENT_TYPES.filter((type) => events.includes(type));
}

/** Use case: `GET /api/webhooks`, the caller's tenant's endpoints, oldest first, never a secret. */
export async function listEndpoints(
  deps: Pick<EndpointsApiDependencies, 'endpoints' | 'clock'>,
  principal: Principal,
): Promise<HttpResult> {
  const now = deps.clock.now();
  const endpoints = await deps.endpoints.list(principal.tenantId);
  return jsonResponse(200, { success: true, data: { webhooks: endpoints.map((endpoint) => endpointView(endpoint, now)) } });
}

/**
 * Use case: `GET /api/webhooks/{id}`: one of the tenant's endpoints, as the
 * list shows it (its secret never; whether it is disabled and why). Another
 * tenant's endpoint, or none, answers 404.
 */
export async function showEndpoint(
  deps: Pick<EndpointsApiDependencies, 'endpoints' | 'clock'>,
  principal: Principal,
  id: string | undefined,
): Promise<HttpResult> {
  const endpoint = await endpointFor(deps.endpoints, principal, id);
  return jsonResponse(200, { success: true, data: endpointView(endpoint, deps.clock.now()) });
}

/** Use case: `DELETE /api/webhooks/{id}`. Its pending deliveries stop (their jobs find no endpoint). */
export async function deleteEndpoint(
  deps: Pick<EndpointsApiDependencies, 'endpoints'>,
  principal: Principal,
  id: string | undefined,
): Promise<HttpResult> {
  const endpoint = await endpointFor(deps.endpoints, principal, id);
  if (!(await deps.endpoints.remove(principal.tenantId, endpoint.id))) {
    throw new AppError('NOT_FOUND', `Webhook endpoint ${endpoint.id} was not found.`);
  }
  return jsonResponse(200, { success: true, data: { id: endpoint.id, deleted: true } });
}

/**
 * Use case: `POST /api/webhooks/{id}/rotate-secret`. A new secret signs
 * every delivery from now on, shown this once; the one it replaces keeps
 * signing beside it (a second `v1` in the header) for 24 hours, or for
 * `previous_secret_expires_in` seconds (0: not at all), so receivers can
 * switch without losing a delivery. A secret already in its grace period
 * is replaced by the one rotated out now.
 */
export async function rotateSecret(
  deps: Pick<EndpointsApiDependencies, 'endpoints' | 'clock'>,
  principal: Principal,
  id: string | undefined,
  body: unknown,
): Promise<HttpResult> {
  const { rotationSchema, ROTATION_GRACE_SECONDS } = await endpointBodies();
  const request = parseBody(rotationSchema, body ?? {});
  // Two tries: a concurrent rotation between our read and our write wins, and we rotate after it.
  for (let pass = 0; pass < 2; pass++) {
    const endpoint = await endpointFor(deps.endpoints, principal, id);
    const now = deps.clock.now();
    const secret = newSigningSecret();
    const graceMs = (request.previous_secret_expires_in ?? ROTATION_GRACE_SECONDS) * 1000;
    const rotated = await deps.endpoints.rotateSecret(principal.tenantId, endpoint.id, endpoint.secret, secret, now + graceMs, now);
    if (rotated) return jsonResponse(200, { success: true, data: endpointView(rotated, now, secret) });
  }
  throw new AppError('INVALID_TRANSITION', 'The secret was rotated by another request at the same time; try again.');
}
