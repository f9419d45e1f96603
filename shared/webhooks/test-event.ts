import type { Principal } from '../access/api-keys';
import { jsonResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';
import { sendEvent, type SendDependencies } from './delivery';
import { signingSecretsOf, type EndpointStore } from './endpoint-store';
import { endpointFor } from './endpoints-api';
import { newEventId } from './ids';

/** The type of the event the test route sends; no endpoint subscribes to it, and it is not kept. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** What sending a test event works with. */
export interface TestEventDependencies extends SendDependencies {
  endpoints: Pick<EndpointStore, 'get'>;
}

/**
 * Use case: `POST /api/webhooks/{id}/test` sends a signed `webhook.test`
 * event to the endpoint now, disabled or not (to check a fix before
 * enabling it again), within the delivery timeout, and answers the attempt:
 * the endpoint's status (null when no answer came), how long it took, the
 * start of its answer, and why no answer came. Nothing is recorded or
 * retried: the event is not kept, and is not among the tenant's events.
 */
export async function sendTestEvent(deps: TestEventDependencies, principal: Principal, id: string | undefined): Promise<HttpResult> {
  const endpoint = await endpointFor(deps.endpoints, principal, id);
  const now = deps.clock.now();
  const event = {
    id: newEventId(),
    type: TEST_EVENT_TYPE,
    created_at: new Date(now).toISOString(),
    data: { webhook_endpoint: { id: endpoint.id, url: endpoint.url }, message: 'A test event: no action is needed.' },
  };
  const outcome = await sendEvent(deps, endpoint.url, signingSecretsOf(endpoint, now), event, 1);
  return jsonResponse(200, {
    success: true,
    data: {
      event_id: event.id,
      status: outcome.statusCode ?? null,
      duration_ms: Math.max(0, Math.round(outcome.durationMs)),
      excerpt: outcome.excerpt ?? null,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
    },
  });
}
