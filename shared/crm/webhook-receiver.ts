import type { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod/mini';
import '../platform/zod-messages';
import { tenantMayActOn, type TenantStore } from '../access/tenants';
import { startCommand, type StartDependencies } from '../commands/start';
import { canonicalJson, sha256Hex } from '../platform/hashing';
import { errorResponse } from '../platform/http/responses';
import type { HttpEvent, HttpResult } from '../platform/http/types';
import type { ConnectionStore } from './connection-store';
import type { CrmImportRequest } from './import-request';
import type { LeadLinks } from './lead-links';
import { isSignedByHubSpot, staleness } from './webhook-signature';

/** Where HubSpot calls (the route's path). */
export const HUBSPOT_WEBHOOK_PATH = '/webhooks/hubspot';

/**
 * The contact properties whose change is a lead event: the date of the
 * latest reply to a sales e-mail (`hs_sales_email_last_replied`) → replied;
 * the reason of an e-mail hard bounce (`hs_email_hard_bounce_reason_enum`) → bounced.
 */
export const SIGNAL_PROPERTIES = { hs_sales_email_last_replied: 'replied', hs_email_hard_bounce_reason_enum: 'bounced' } as const;

/** Most events one call may carry (HubSpot sends at most 100 per call). */
export const MAX_WEBHOOK_EVENTS = 100;

/** A number or a string, read as a string (HubSpot sends ids as numbers). */
const idText = () => z.pipe(z.union([z.number(), z.string()]), z.transform(String));

const webhookEventSchema = z.looseObject({
  eventId: idText(),
  subscriptionType: z.string(),
  portalId: idText(),
  objectId: idText(),
  occurredAt: z.optional(z.number()),
  propertyName: z.optional(z.string()),
  propertyValue: z.optional(z.string()),
});
const webhookBodySchema = z.array(webhookEventSchema).check(z.minLength(1), z.maxLength(MAX_WEBHOOK_EVENTS));
type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** A lead event reported for a tenant, as `POST /api/leads/{id}/events` takes it. */
export interface ReportedLeadEvent {
  tenantId: string;
  siteId: string;
  leadId: string;
  type: 'replied' | 'bounced';
  occurredAt: string;
  /** Makes a retried HubSpot call report it once. */
  idempotencyKey: string;
}

/** What the receiver works with. */
export interface WebhookReceiverDependencies extends StartDependencies {
  connections: Pick<ConnectionStore, 'tenantsOfPortal' | 'credentials'>;
  links: Pick<LeadLinks, 'leadOf'>;
  tenants: Pick<TenantStore, 'get'>;
  /** Records a lead event as `POST /api/leads/{id}/events` does (its use case, handed in by the composition root). */
  reportLeadEvent: (event: ReportedLeadEvent) => Promise<void>;
  /** PUBLIC_BASE_URL: the URL HubSpot calls is signed with it; without it every call is refused. */
  publicBaseUrl?: string;
  logger: Pick<Logger, 'info' | 'warn'>;
}

const refused = () => errorResponse({ code: 'UNAUTHORIZED', message: 'The HubSpot signature is missing, stale or wrong.' });

/**
 * Use case: `POST /webhooks/hubspot`. Checks the signature v3 against the
 * client secret of each tenant connected to the portal the events name
 * (401 and nothing done when none matches, or when the body is not a list
 * of events naming one portal, which no secret can then be looked up for),
 * then, for each such tenant:
 * a contact change or creation of a contact linked to leads re-reads the
 * contact into its leads (a crm_import command of those contacts, per
 * site, once per batch of events however often HubSpot retries it); a
 * change of a reply or bounce property ({@link SIGNAL_PROPERTIES}) is also
 * reported as that lead event, once per HubSpot event. Contacts linked to
 * no lead are ignored (counted in the log). Answers 204 at once: the
 * re-reading runs as a job.
 */
export async function answerHubSpotWebhook(deps: WebhookReceiverDependencies, event: HttpEvent): Promise<HttpResult> {
  const headers = lowerCased(event.headers);
  const body = event.body !== undefined && event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : (event.body ?? '');
  const request = {
    method: event.requestContext?.http?.method ?? 'POST',
    url: deps.publicBaseUrl ? publicUrl(deps.publicBaseUrl, event.rawQueryString) : '',
    body,
    timestamp: headers['x-hubspot-request-timestamp'],
    signature: headers['x-hubspot-signature-v3'],
  };
  const now = deps.clock.now();
  const stale = staleness(request, now);
  if (stale !== undefined || !deps.publicBaseUrl) {
    deps.logger.warn('HubSpot webhook call refused', { reason: stale ?? 'PUBLIC_BASE_URL is not set' });
    return refused();
  }
  // Which secrets may have signed the call is read from its events' portal: a body that names none (not a list of events, or
  // several portals) cannot be verified, so it is refused as an unsigned one is, whatever it carries.
  const events = parseEvents(body);
  const portals = [...new Set((events ?? []).map((item) => item.portalId))];
  if (!events || portals.length !== 1) {
    deps.logger.warn('HubSpot webhook call refused', {
      reason: events ? 'its events name several portals' : 'its body is not a list of events',
    });
    return refused();
  }

  const verified: string[] = [];
  for (const tenantId of await deps.connections.tenantsOfPortal('hubspot', portals[0]!)) {
    const secret = (await deps.connections.credentials(tenantId, 'hubspot'))?.secrets.clientSecret;
    if (secret && isSignedByHubSpot(secret, request, now)) verified.push(tenantId);
  }
  if (verified.length === 0) {
    deps.logger.warn('HubSpot webhook call refused', { reason: 'no connection of the portal signed it', portalId: portals[0] });
    return refused();
  }
  for (const tenantId of verified) await handleForTenant(deps, tenantId, events);
  return { statusCode: 204, headers: {}, body: '' };
}

async function handleForTenant(deps: WebhookReceiverDependencies, tenantId: string, events: WebhookEvent[]): Promise<void> {
  const tenant = await deps.tenants.get(tenantId);
  const bySite = new Map<string, Set<string>>();
  let ignored = 0;
  for (const item of events) {
    if (item.subscriptionType !== 'contact.propertyChange' && item.subscriptionType !== 'contact.creation') {
      ignored += 1;
      continue;
    }
    const leads = (await deps.links.leadOf(tenantId, item.objectId)).filter((lead) => tenantMayActOn(tenant, lead.siteId));
    if (leads.length === 0) {
      ignored += 1;
      continue;
    }
    const signal = item.propertyName ? SIGNAL_PROPERTIES[item.propertyName as keyof typeof SIGNAL_PROPERTIES] : undefined;
    for (const lead of leads) {
      bySite.set(lead.siteId, (bySite.get(lead.siteId) ?? new Set()).add(item.objectId));
      if (signal && item.propertyValue) {
        await deps.reportLeadEvent({
          tenantId,
          siteId: lead.siteId,
          leadId: lead.leadId,
          type: signal,
          occurredAt: occurredAt(signal, item, deps.clock.now()),
          idempotencyKey: `hubspot-event-${item.eventId}-${lead.leadId}`,
        });
      }
    }
  }
  const batch = sha256Hex(events.map((item) => item.eventId).join(','));
  for (const [siteId, contacts] of bySite) {
    const request: CrmImportRequest = { site_id: siteId, source: { kind: 'contacts', contact_ids: [...contacts].sort() } };
    await startCommand(deps, {
      type: 'crm_import',
      tenantId,
      siteId,
      request,
      idempotency: { key: `hubspot-webhook-${batch}-${sha256Hex(siteId).slice(0, 16)}`, bodyHash: sha256Hex(canonicalJson(request)) },
    });
  }
  deps.logger.info('HubSpot webhook call handled', { tenantId, events: events.length, ignored, sites: bySite.size });
}

/** When the signal happened: a reply's date property (epoch ms or ISO), else when HubSpot saw the change, else now. */
function occurredAt(signal: 'replied' | 'bounced', item: WebhookEvent, now: number): string {
  const value = item.propertyValue ?? '';
  const fromValue = signal === 'replied' ? (/^\d+$/.test(value) ? Number(value) : Date.parse(value)) : Number.NaN;
  const at = Number.isFinite(fromValue) ? fromValue : (item.occurredAt ?? now);
  return new Date(Math.min(at, now)).toISOString();
}

/** The call's events, or undefined when its body is not a JSON list of HubSpot events. */
function parseEvents(body: string): WebhookEvent[] | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = webhookBodySchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

function publicUrl(base: string, query: string | undefined): string {
  const root = new URL(base);
  return `${root.origin}${root.pathname.replace(/\/+$/, '')}${HUBSPOT_WEBHOOK_PATH}${query ? `?${query}` : ''}`;
}

function lowerCased(headers: HttpEvent['headers']): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}
