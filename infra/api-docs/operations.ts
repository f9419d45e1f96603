import { COMMAND_OPERATIONS } from '../../shared/api/openapi/commands';
import type { DocumentedEvent, DocumentedOperation } from '../../shared/api/openapi/operation';
import { SERVICE_OPERATIONS } from '../../shared/api/openapi/service';
import { CRM_OPERATIONS } from '../../shared/crm/openapi';
import { CRM_SYNC_OPERATIONS } from '../../shared/crm/sync/openapi';
import { DEEP_RESEARCH_OPERATIONS } from '../../shared/deep-research/openapi';
import { LEAD_FOLLOW_UP_OPERATIONS } from '../../shared/lead-follow-up/openapi';
import { FOLLOW_UP_SEQUENCE_EVENTS, FOLLOW_UP_SEQUENCE_OPERATIONS } from '../../shared/lead-follow-up/sequences/openapi';
import { STAKEHOLDER_COORDINATION_EVENTS, STAKEHOLDER_COORDINATION_OPERATIONS } from '../../shared/stakeholder-coordination/openapi';
import { VOICE_ASSISTANT_EVENTS } from '../../shared/voice-assistant/openapi';
import { USAGE_OPERATIONS } from '../../shared/api/openapi/usage';
import { WEBHOOK_EVENTS, WEBHOOK_OPERATIONS } from '../../shared/webhooks/openapi';

/**
 * Every documented operation, feature by feature, in the reference's order
 * (sections appear in the order of their first operation).
 * A feature declares its operations in its own `shared/<feature>/openapi.ts`;
 * a new feature adds one line here. test/unit/api-docs/coverage.test.ts fails
 * while a route of the catalogue (shared/catalogue/routes.ts) has no entry.
 */
export const OPERATIONS: readonly DocumentedOperation[] = [
  ...LEAD_FOLLOW_UP_OPERATIONS,
  ...FOLLOW_UP_SEQUENCE_OPERATIONS,
  ...STAKEHOLDER_COORDINATION_OPERATIONS,
  ...DEEP_RESEARCH_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...CRM_OPERATIONS,
  ...CRM_SYNC_OPERATIONS,
  ...COMMAND_OPERATIONS,
  ...USAGE_OPERATIONS,
  ...SERVICE_OPERATIONS,
];

/**
 * Every event sent to the tenants' webhook endpoints (the document's
 * `webhooks`), each declared with `webhookEvent` in its feature's `openapi.ts`.
 */
export const EVENTS: readonly DocumentedEvent[] = [
  ...WEBHOOK_EVENTS,
  ...STAKEHOLDER_COORDINATION_EVENTS,
  ...VOICE_ASSISTANT_EVENTS,
  ...FOLLOW_UP_SEQUENCE_EVENTS,
];
