import type { FunctionId } from './functions';

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'HEAD' | 'DELETE' | 'PATCH';
  /** API Gateway route path; `{name}` segments are path parameters. */
  path: string;
  function: FunctionId;
}

/** Every HTTP route. Anything else reaches `notFoundApi` (the `$default` route). */
export const ROUTES: readonly RouteDefinition[] = [
  { method: 'POST', path: '/api/agents/sales/leadFollowUp', function: 'leadFollowUpApi' },
  { method: 'GET', path: '/api/commands/{id}', function: 'getCommandApi' },
  { method: 'DELETE', path: '/api/commands/{id}', function: 'deleteCommandApi' },
  { method: 'GET', path: '/health', function: 'healthApi' },
  { method: 'HEAD', path: '/health', function: 'healthApi' },
  { method: 'POST', path: '/api/deepResearch/operation', function: 'deepResearchApi' },
  { method: 'POST', path: '/api/agents/cmo/stakeholder-coordination', function: 'stakeholderCoordinationApi' },
  // Outside /api and without a key: Twilio signs each callback (X-Twilio-Signature), and the webhook checks that.
  { method: 'POST', path: '/webhooks/twilio/call-status', function: 'twilioCallStatusWebhook' },
  // The tenant's completion webhooks (docs/webhooks.md).
  { method: 'POST', path: '/api/webhooks', function: 'webhooksApi' },
  { method: 'GET', path: '/api/webhooks', function: 'webhooksApi' },
  { method: 'DELETE', path: '/api/webhooks/{id}', function: 'webhooksApi' },
  { method: 'POST', path: '/api/webhooks/{id}/rotate-secret', function: 'webhooksApi' },
  { method: 'GET', path: '/api/webhooks/{id}/deliveries', function: 'webhooksApi' },
  { method: 'POST', path: '/api/webhooks/{id}/deliveries/{event_id}/redeliver', function: 'webhooksApi' },
  { method: 'GET', path: '/api/leads/{leadId}/follow-ups', function: 'listFollowUpsApi' },
  { method: 'PATCH', path: '/api/follow-ups/{id}', function: 'updateFollowUpApi' },
  { method: 'POST', path: '/api/leads/{leadId}/events', function: 'leadEventsApi' },
  // The API reference, without a key like /health: the OpenAPI document, and the page that renders it (shared/api/reference.ts).
  { method: 'GET', path: '/openapi.json', function: 'apiDocsApi' },
  { method: 'GET', path: '/docs', function: 'apiDocsApi' },
  { method: 'GET', path: '/docs/redoc.standalone.js', function: 'apiDocsApi' },
];

/** The function that answers requests no route matches. */
export const DEFAULT_ROUTE_FUNCTION: FunctionId = 'notFoundApi';
