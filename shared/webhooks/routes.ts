import type { ApiCall } from '../api/route';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../catalogue/limits';
import { AppError } from '../platform/errors';
import { errorResponse } from '../platform/http/responses';
import type { HttpEvent, HttpResult } from '../platform/http/types';
import { JsonDocumentError, parseJsonDocument } from '../platform/json';
import { shownId } from '../platform/shown';
import { listDeliveries, redeliver, type DeliveriesApiDependencies } from './deliveries-api';
import { listEvents, redeliverEvent, type EventsApiDependencies } from './events-api';
import {
  deleteEndpoint,
  listEndpoints,
  registerEndpoint,
  rotateSecret,
  showEndpoint,
  updateEndpoint,
  WEBHOOK_VALIDATION_CODE,
  type EndpointsApiDependencies,
} from './endpoints-api';

/** What every webhook route works with. */
export type WebhookRoutesDependencies = EndpointsApiDependencies & DeliveriesApiDependencies & EventsApiDependencies;

/**
 * Use case: one request to the tenant's completion webhooks (the routes of
 * shared/catalogue/routes.ts that name `webhooksApi`), after its key was
 * checked. Bodies are read here, in the order of docs/api.md "Order of checks":
 * size (413), JSON (400 VALIDATION_ERROR), then the route's schema.
 */
export async function answerWebhookRoute(deps: WebhookRoutesDependencies, call: Pick<ApiCall, 'event' | 'principal'>): Promise<HttpResult> {
  const { event, principal } = call;
  const id = event.pathParameters?.id;
  switch (event.routeKey) {
    case 'POST /api/webhooks':
      return registerEndpoint(deps, principal, readJsonBody(event, true));
    case 'GET /api/webhooks':
      return listEndpoints(deps, principal);
    case 'GET /api/webhooks/{id}':
      return showEndpoint(deps, principal, id);
    case 'PATCH /api/webhooks/{id}':
      return updateEndpoint(deps, principal, id, readJsonBody(event, true));
    case 'DELETE /api/webhooks/{id}':
      return deleteEndpoint(deps, principal, id);
    case 'POST /api/webhooks/{id}/rotate-secret':
      return rotateSecret(deps, principal, id, readJsonBody(event, false));
    case 'GET /api/webhooks/{id}/deliveries':
      return listDeliveries(deps, principal, id, event.queryStringParameters ?? {});
    case 'POST /api/webhooks/{id}/deliveries/{event_id}/redeliver':
      return redeliver(deps, principal, id, event.pathParameters?.event_id);
    case 'GET /api/events':
      return listEvents(deps, principal, event.queryStringParameters ?? {});
    case 'POST /api/events/{id}/redeliver':
      return redeliverEvent(deps, principal, id);
    default:
      return errorResponse({ code: 'NOT_FOUND', message: `No route for ${shownId(event.routeKey ?? '')}.` });
  }
}

/** The request's JSON body; undefined when absent and not required. */
function readJsonBody(event: HttpEvent, required: boolean): unknown {
  const text = event.body !== undefined && event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (text !== undefined && Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${Math.round(MAX_BODY_BYTES / 1024)} KiB.`);
  }
  if (text === undefined || text.trim() === '') {
    if (required) throw new AppError(WEBHOOK_VALIDATION_CODE, 'A JSON request body is required.');
    return undefined;
  }
  try {
    return parseJsonDocument(text, MAX_JSON_DEPTH);
  } catch (error) {
    if (!(error instanceof JsonDocumentError)) throw error;
    throw new AppError(
      WEBHOOK_VALIDATION_CODE,
      error.reason === 'too_deep' ? `The request body nests deeper than ${MAX_JSON_DEPTH} levels.` : 'The request body is not valid JSON.',
    );
  }
}
