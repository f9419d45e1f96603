import { PoisonJobError, type JobEnvelope } from '../../commands/job';
import type { TaskDefinition } from '../../commands/task-worker';
import { epochSeconds, type Clock } from '../../platform/clock';
import { CrmError, CrmRateLimitedError } from '../../providers/crm/errors';
import type { CrmProvider } from '../../providers/crm/port';
import { connectedCrm } from '../connected-client';
import type { ConnectionStore } from '../connection-store';
import type { LeadLinks } from '../lead-links';
import { leadStatusMapOf, movesBack } from '../lead-status';
import type { CrmDeliveryStore, DeliveryKey } from './delivery-store';
import { CRM_SYNC_JOB, crmSyncRequestSchema, deliveryKindOf, type CrmSyncRequest } from './job';
import { markedBody, markerOf } from './marker';

/** What a `crm_sync` job reads and writes through. */
export interface CrmSyncDependencies {
  connections: Pick<ConnectionStore, 'credentials' | 'recordSync'>;
  links: Pick<LeadLinks, 'contactOf'>;
  deliveries: CrmDeliveryStore;
  crm: CrmProvider;
  clock: Clock;
  /** How long a delivery record is kept (COMMAND_RETENTION_DAYS: as long as the follow-ups it records). */
  retentionMs: number;
  /** How long a claim keeps other workers off one delivery: longer than one attempt can take (the worker's timeout). */
  leaseMs: number;
  /**
   * Queues the job again after the CRM's `Retry-After` (seconds, as the attempt it will be), when HubSpot asks for a longer wait than
   * the queue's back-off would give. @default none: the queue's back-off applies
   */
  requeue?: (job: JobEnvelope, delaySeconds: number, attempt: number) => Promise<void>;
  /** Attempts a job gets in all (the queue's maxReceiveCount): the last one is never requeued. @default 1 */
  maxAttempts?: number;
}

/** The scope without which HubSpot will not read logged e-mails back. */
const EMAIL_READ_SCOPE = 'sales-email-read';

/** Longest delay SQS gives a message. */
const MAX_DELAY_SECONDS = 900;

/** A write another worker holds: retried with the queue's back-off, by which time that worker has finished or its lease ended. */
export class DeliveryBusyError extends Error {
  constructor() {
    super('Another worker is writing this delivery');
    this.name = 'DeliveryBusyError';
  }
}

/**
 * Use case: the `crm_sync` task, one write to the tenant's CRM. Nothing for
 * a tenant without a connection or a lead without a contact (an outcome,
 * not a failure). Otherwise the delivery is claimed before the write and
 * completed with the CRM's record after, so a repeated job writes nothing;
 * an attempt that stopped without knowing whether the CRM took the write
 * looks for the engagement's reference on the contact before writing
 * again. A CRM that is down or limiting is retried with the queue's
 * back-off; a refusal dead-letters the job with its reason.
 */
export function crmSyncTask(deps: CrmSyncDependencies): TaskDefinition<CrmSyncRequest> {
  return {
    type: CRM_SYNC_JOB,
    parse: (request) => crmSyncRequestSchema().parse(request),
    async run({ job, input, attempt }) {
      const tenantId = job.tenant_id;
      const connected = await connectedCrm(deps, tenantId);
      if (!connected) return { outcome: 'skipped_no_connection' };
      const contactId = await deps.links.contactOf(tenantId, input.site_id, input.lead_id);
      if (!contactId) return { outcome: 'skipped_no_link' };
      const key: DeliveryKey = {
        tenantId,
        siteId: input.site_id,
        leadId: input.lead_id,
        source: input.source,
        sourceId: input.source_id,
        kind: deliveryKindOf(input),
      };
      const now = deps.clock.now();
      const claim = await deps.deliveries.claim(key, contactId, now, deps.leaseMs, epochSeconds(now + deps.retentionMs));
      if (claim.state === 'done') return { outcome: 'already_done' };
      if (claim.state === 'busy') throw new DeliveryBusyError();
      // The contact of the first claim: a link changed since then must not split one delivery over two contacts.
      const contact = claim.delivery.contact_id;
      const { client, connection } = connected;
      const record = async (error?: string) => {
        await deps.connections.recordSync(tenantId, connection.provider, {
          at: new Date(deps.clock.now()).toISOString(),
          ...(error ? { error } : {}),
        });
      };
      try {
        if (input.write.kind === 'lead_status') {
          const table = leadStatusMapOf(connection.lead_status_map);
          const status = table[input.write.trigger];
          const current = (await client.getContact(contact))?.leadStatus;
          if (movesBack(table, current, input.write.trigger)) {
            await deps.deliveries.complete(key, { leadStatus: current }, deps.clock.now());
            return { outcome: 'lead_status_kept', extra: { trigger: input.write.trigger } };
          }
          await client.setLeadStatus(contact, status);
          await deps.deliveries.complete(key, { leadStatus: status }, deps.clock.now(), commandOf(input));
          await record();
          return { outcome: 'lead_status_set', extra: { trigger: input.write.trigger } };
        }
        const { subject, body, at, duration_seconds } = input.write;
        // A logged e-mail can only be searched for (after an unknown outcome) with `sales-email-read`: without it, a note.
        const asNote = input.write.engagement === 'email' && !connection.scopes.includes(EMAIL_READ_SCOPE);
        const engagement = asNote ? 'note' : input.write.engagement;
        const text = asNote ? `E-mail sent${subject ? `: ${subject}` : ''}\n\n${body}` : body;
        const marker = markerOf(key);
        if (claim.state === 'unknown') {
          const found = await client.findEngagement(contact, engagement, marker);
          if (found) {
            await deps.deliveries.complete(key, { crmRecordId: found }, deps.clock.now(), commandOf(input));
            await record();
            return { outcome: 'found_written', extra: { engagement } };
          }
        }
        const created = await client.createEngagement({
          contactId: contact,
          kind: engagement,
          body: markedBody(text, marker),
          at,
          ...(subject ? { subject } : {}),
          ...(duration_seconds === undefined ? {} : { durationSeconds: duration_seconds }),
        });
        await deps.deliveries.complete(key, { crmRecordId: created.id }, deps.clock.now(), commandOf(input));
        await record();
        return { outcome: 'engagement_written', extra: { engagement } };
      } catch (error) {
        if (error instanceof CrmError && !error.retryable) {
          await deps.deliveries.fail(key, error.message, deps.clock.now());
          await record(error.message);
          throw new PoisonJobError(`The CRM refused the write: ${error.message}`, { cause: error });
        }
        // Down, limiting, or a failure of our own: the write may have reached the CRM; the next attempt checks before writing.
        await deps.deliveries.release(key, deps.clock.now());
        if (error instanceof CrmError) await record(error.message);
        if (error instanceof CrmRateLimitedError && deps.requeue && attempt < (deps.maxAttempts ?? 1)) {
          // HubSpot said how long to wait: come back then, not after the queue's shorter back-off.
          const delaySeconds = Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.ceil(error.retryAfterSeconds)));
          await deps.requeue(job, delaySeconds, attempt + 1);
          return { outcome: 'rate_limited', extra: { retryInSeconds: delaySeconds } };
        }
        throw error;
      }
    },
  };
}

/** The command a write is about, when its source names one (a lead follow-up's messages): its usage counts the write. */
function commandOf(input: { source: string; source_id: string }): string | undefined {
  return input.source === 'follow_up' ? input.source_id : undefined;
}
