import * as z from 'zod/mini';
import '../../platform/zod-messages';
import { JOB_ENVELOPE_VERSION, type JobEnvelope } from '../../commands/job';
import { lazy } from '../../platform/memo';
import { LEAD_STATUS_TRIGGERS } from '../lead-status';

/** The job type of a write back to the tenant's CRM. */
export const CRM_SYNC_JOB = 'crm_sync' as const;

/** Longest engagement body a job carries (HubSpot keeps far more; a rep's note is shorter). */
export const MAX_SYNC_BODY = 10_000;

/** What happened to the lead that the CRM should hear of. */
export const SYNC_SOURCES = ['step', 'follow_up', 'meeting_summary', 'lead_event'] as const;
export type SyncSource = (typeof SYNC_SOURCES)[number];

/**
 * The request of a `crm_sync` job: one write to one lead's contact. The
 * contact, the connection and the lead status value are found when it runs,
 * so a link or an override made after the moment still applies. Built on
 * first use: only a tenant with a CRM connection queues one.
 */
export const crmSyncRequestSchema = lazy(() => {
  const id = z.string().check(z.minLength(1), z.maxLength(128));
  return z.strictObject({
    site_id: id,
    lead_id: id,
    /** What happened, and its id (the step's, the command's, the event's). */
    source: z.enum(SYNC_SOURCES),
    source_id: id,
    write: z.discriminatedUnion('kind', [
      z.strictObject({
        kind: z.literal('engagement'),
        engagement: z.enum(['note', 'email', 'call']),
        subject: z.optional(z.string().check(z.maxLength(500))),
        body: z.string().check(z.minLength(1), z.maxLength(MAX_SYNC_BODY)),
        at: z.iso.datetime({ offset: true }),
        duration_seconds: z.optional(z.number().check(z.nonnegative())),
      }),
      z.strictObject({ kind: z.literal('lead_status'), trigger: z.enum(LEAD_STATUS_TRIGGERS) }),
    ]),
  });
});

export type CrmSyncRequest = z.infer<ReturnType<typeof crmSyncRequestSchema>>;

/** The envelope of a `crm_sync` job for a tenant (what the producers queue). */
export function crmSyncJob(tenantId: string, request: CrmSyncRequest): JobEnvelope {
  return { version: JOB_ENVELOPE_VERSION, type: CRM_SYNC_JOB, tenant_id: tenantId, request: crmSyncRequestSchema().parse(request) };
}

/** The write a delivery record stands for: one per (lead, source, kind); a lead status per trigger. */
export function deliveryKindOf(request: CrmSyncRequest): string {
  return request.write.kind === 'engagement' ? 'engagement' : `lead_status:${request.write.trigger}`;
}
