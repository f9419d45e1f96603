import type { Principal } from '../../access/api-keys';
import { AppError } from '../../platform/errors';
import { jsonResponse } from '../../platform/http/responses';
import type { HttpResult } from '../../platform/http/types';
import { isUuid } from '../../platform/ids';
import { shownId } from '../../platform/shown';
import type { CrmDelivery, CrmDeliveryStore } from './delivery-store';

/** Most deliveries one answer lists (a lead has one per step sent, per status moved and per summary: far fewer). */
export const MAX_LOGGED_DELIVERIES = 100;

/** A delivery as the log shows it. */
export function deliveryView(delivery: CrmDelivery) {
  return {
    source: delivery.source,
    source_id: delivery.source_id,
    kind: delivery.kind,
    status: delivery.status,
    contact_id: delivery.contact_id,
    crm_record_id: delivery.crm_record_id ?? null,
    lead_status: delivery.lead_status ?? null,
    attempts: delivery.attempts,
    error: delivery.error ?? null,
    claimed_at: delivery.claimed_at,
    updated_at: delivery.updated_at,
  };
}

/**
 * Use case: `GET /api/leads/{leadId}/crm-syncs?site_id=…`, the lead's
 * delivery log: every write back to the tenant's CRM, with its state and
 * the CRM's record id. The tenant's own only; a site the key does not cover
 * answers 403 FORBIDDEN; a lead with no write yet, an empty list.
 */
export async function answerCrmSyncLog(
  deps: { deliveries: Pick<CrmDeliveryStore, 'listForLead'> },
  principal: Principal,
  leadId: string | undefined,
  query: Readonly<Record<string, string | undefined>> | null | undefined,
): Promise<HttpResult> {
  const lead = leadId?.toLowerCase();
  if (!lead || !isUuid(lead)) throw new AppError('INVALID_REQUEST', `leadId must be a UUID (got ${shownId(leadId ?? '')}).`);
  const site = query?.site_id?.toLowerCase();
  if (!site || !isUuid(site)) {
    throw new AppError('INVALID_REQUEST', 'The site_id query parameter (a UUID) is required.', [
      { code: 'invalid_type', message: 'must be a UUID', path: ['site_id'] },
    ]);
  }
  if (!principal.siteIds.includes(site)) throw new AppError('FORBIDDEN', 'This API key has no access to that site.');
  const deliveries = await deps.deliveries.listForLead(principal.tenantId, site, lead, MAX_LOGGED_DELIVERIES);
  return jsonResponse(200, { success: true, data: { site_id: site, lead_id: lead, crm_syncs: deliveries.map(deliveryView) } });
}
