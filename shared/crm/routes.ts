import type { ApiCall } from '../api/route';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../catalogue/limits';
import { AppError } from '../platform/errors';
import { errorResponse } from '../platform/http/responses';
import type { HttpEvent, HttpResult } from '../platform/http/types';
import { JsonDocumentError, parseJsonDocument } from '../platform/json';
import { onFirstUse } from '../platform/memo';
import { shownId } from '../platform/shown';
import {
  connectHubSpot,
  CRM_VALIDATION_CODE,
  disconnectHubSpot,
  showHubSpotConnection,
  type ConnectionApiDependencies,
} from './connection-api';
import type { ImportApiDependencies } from './import-api';

/**
 * The import's start, imported once by the first import (a failed import is tried again by the next): connecting,
 * showing and removing a connection never build the import's request schema.
 */
const importApi = onFirstUse(() => import('./import-api'));

/**
 * Use case: one request to the tenant's HubSpot connection (the routes of
 * shared/catalogue/routes.ts that name `crmConnectionApi`), after its key
 * was checked. The body is read here, in the order of docs/api.md "Order of
 * checks": size (413), JSON (400 INVALID_REQUEST), then the schema.
 */
export async function answerCrmRoute(
  deps: ConnectionApiDependencies & ImportApiDependencies,
  call: Pick<ApiCall, 'event' | 'principal' | 'headers'>,
): Promise<HttpResult> {
  const { event, principal } = call;
  switch (event.routeKey) {
    case 'PUT /api/integrations/hubspot':
      return connectHubSpot(deps, principal, readJsonBody(event));
    case 'GET /api/integrations/hubspot':
      return showHubSpotConnection(deps, principal);
    case 'DELETE /api/integrations/hubspot':
      return disconnectHubSpot(deps, principal);
    case 'POST /api/integrations/hubspot/import': {
      const { startCrmImport } = await importApi();
      return startCrmImport(deps, { principal, body: readJsonBody(event), headers: call.headers });
    }
    default:
      return errorResponse({ code: 'NOT_FOUND', message: `No route for ${shownId(event.routeKey ?? '')}.` });
  }
}

/** The request's JSON body (required). */
function readJsonBody(event: HttpEvent): unknown {
  const text = event.body !== undefined && event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (text !== undefined && Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${Math.round(MAX_BODY_BYTES / 1024)} KiB.`);
  }
  if (text === undefined || text.trim() === '') throw new AppError(CRM_VALIDATION_CODE, 'A JSON request body is required.');
  try {
    return parseJsonDocument(text, MAX_JSON_DEPTH);
  } catch (error) {
    if (!(error instanceof JsonDocumentError)) throw error;
    throw new AppError(
      CRM_VALIDATION_CODE,
      error.reason === 'too_deep' ? `The request body nests deeper than ${MAX_JSON_DEPTH} levels.` : 'The request body is not valid JSON.',
    );
  }
}
