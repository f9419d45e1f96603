import type { Logger } from '@aws-lambda-powertools/logger';
import { jobNaming } from '../commands/job';
import type { JobQueue } from '../commands/queue';
import type { CommandStore } from '../commands/store';
import type { JobDefinition, PhaseInput, PhaseOutcome } from '../commands/worker';
import type { Clock } from '../platform/clock';
import { newId } from '../platform/ids';
import { describeError } from '../platform/logger';
import { CrmCredentialsError, CrmRateLimitedError, CrmRejectedError } from '../providers/crm/errors';
import { MAX_PAGE_SIZE, type CrmClient, type CrmContact, type CrmProvider } from '../providers/crm/port';
import type { SiteDirectory, SiteWriter } from '../sites/directory';
import { connectedCrm } from './connected-client';
import type { ConnectionStore } from './connection-store';
import { emptyTally, type CrmImportProgress, type ImportTally } from './import-progress';
import type { CrmImportRequest } from './import-request';
import { crmImportKind } from './kinds';
import { LeadLinkedElsewhereError, type LeadLinks } from './lead-links';
import { leadFieldsOf, mergedLead } from './lead-mapping';

/**
 * Most contacts one import handles (created, updated or skipped); it ends
 * with `limit_reached` when HubSpot has more. Bound: the result lists each
 * contact (about 110 bytes), so 1,000 keep the command item near 110 KB,
 * well inside DynamoDB's 400 KB with the progress beside it.
 */
export const MAX_IMPORT_CONTACTS = 1_000;

/**
 * How long one job reads pages before it hands the rest to a fresh job.
 * Bound: a page reads its contacts and their notes and e-mails (five
 * HubSpot calls, each at most 53 s in the worst case of the CRM policy),
 * so a page started before 60 s ends well inside the worker's 360 s.
 */
export const IMPORT_PAGE_BUDGET_MS = 60_000;

/** The queue the import's jobs run on (its catalogue entry). */
const IMPORT_QUEUE = 'crm';

/** Longest delay SQS takes for a message. */
const MAX_DELAY_SECONDS = 900;

/** What the import worker works with, built once per cold start. */
export interface ImportPhaseDependencies {
  connections: Pick<ConnectionStore, 'credentials' | 'recordSync'>;
  crm: CrmProvider;
  links: LeadLinks;
  sites: Pick<SiteDirectory, 'getItem' | 'listItems'> & Pick<SiteWriter, 'putItems'>;
  commands: Pick<CommandStore, 'recordProgress' | 'release'>;
  queue: Pick<JobQueue, 'sendAgain'>;
  clock: Clock;
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** @default IMPORT_PAGE_BUDGET_MS */
  pageBudgetMs?: number;
}

/** The crm_import worker's job: API-started only (no producer jobs). */
export function crmImportJob(deps: ImportPhaseDependencies): JobDefinition<CrmImportRequest, CrmImportProgress> {
  return {
    type: 'crm_import',
    kind: crmImportKind,
    siteIdOf: (request) => request.site_id,
    run: (input) => runImportPhase(deps, input),
  };
}

interface Page {
  contacts: CrmContact[];
  /** Ids asked for that HubSpot no longer has. */
  missing: string[];
  next?: string;
}

async function readPage(client: CrmClient, request: CrmImportRequest, after: string | undefined): Promise<Page> {
  const source = request.source;
  if (source.kind === 'all') {
    const page = await client.listContacts({ ...(after ? { after } : {}), limit: MAX_PAGE_SIZE }, { withActivities: true });
    return { contacts: page.items, missing: [], ...(page.next ? { next: page.next } : {}) };
  }
  const ids =
    source.kind === 'contacts'
      ? { items: source.contact_ids, next: undefined }
      : await client.listMembers(source.list_id, { ...(after ? { after } : {}), limit: MAX_PAGE_SIZE });
  const contacts = ids.items.length > 0 ? await client.readContacts(ids.items, { withActivities: true }) : [];
  const found = new Set(contacts.map((contact) => contact.id));
  return { contacts, missing: ids.items.filter((id) => !found.has(id)), ...(ids.next ? { next: ids.next } : {}) };
}

/**
 * Use case: one run of a crm_import command. Reads the contacts page by
 * page with the tenant's own connection and upserts each as a lead of the
 * site (lead-mapping.ts), linked to its contact (a contact imported again
 * updates the lead it is linked to). The tally and the next cursor are
 * kept after each page, so a redelivered job starts at the first page not
 * done. A long `Retry-After` (`CrmRateLimitedError`), or the page budget
 * spent, queues the job again (delayed by the wait) rather than failing.
 * A 5xx or a timeout throws: the worker retries the job with back-off.
 */
export async function runImportPhase(
  deps: ImportPhaseDependencies,
  input: PhaseInput<CrmImportRequest, CrmImportProgress>,
): Promise<PhaseOutcome> {
  const { command, request, job, attempt } = input;
  const tenantId = command.tenant_id;
  const connected = await connectedCrm(deps, tenantId);
  if (!connected)
    return { status: 'failed', error: { code: 'NOT_FOUND', message: 'The tenant has no HubSpot connection: connect it first.' } };

  const started = deps.clock.now();
  let progress = {
    tally: command.progress?.tally ?? emptyTally(),
    pages: command.progress?.pages ?? 0,
    after: command.progress?.after,
    waits: command.progress?.waits ?? 0,
  };
  const requeue = async (delaySeconds: number): Promise<PhaseOutcome> => {
    await deps.commands.release(command.id);
    await deps.queue.sendAgain(IMPORT_QUEUE, JSON.stringify(jobNaming(job.type, tenantId, command.id)), delaySeconds, attempt);
    return { status: 'handed_off' };
  };

  for (;;) {
    let page: Page;
    try {
      page = await readPage(connected.client, request, progress.after);
    } catch (error) {
      if (error instanceof CrmRateLimitedError) {
        // A wait spends none of the job's attempts, so the waits are counted: a portal that never stops limiting ends the import.
        if (progress.waits >= MAX_RATE_LIMITED_WAITS) {
          const message = `HubSpot kept asking this import to wait (${progress.waits} times); nothing more was read. Start it again later.`;
          await deps.connections.recordSync(tenantId, 'hubspot', { at: new Date(deps.clock.now()).toISOString(), error: message });
          return { status: 'failed', error: { code: 'RATE_LIMITED', message } };
        }
        deps.logger?.info('HubSpot asked the import to wait', { commandId: command.id, retryAfterSeconds: error.retryAfterSeconds });
        progress = { ...progress, waits: progress.waits + 1 };
        await deps.commands.recordProgress(command.id, { progress }, deps.clock.now());
        return requeue(Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.ceil(error.retryAfterSeconds))));
      }
      const refused = refusal(error);
      if (refused) {
        await deps.connections.recordSync(tenantId, 'hubspot', { at: new Date(deps.clock.now()).toISOString(), error: refused });
        return { status: 'failed', error: { code: error instanceof CrmRejectedError ? 'NOT_FOUND' : 'INVALID_REQUEST', message: refused } };
      }
      throw error;
    }
    const tally = await upsertPage(deps, tenantId, request.site_id, page, progress.tally);
    const more = page.next !== undefined && request.source.kind !== 'contacts';
    const full = tally.leads.length + tally.skips.length >= MAX_IMPORT_CONTACTS;
    if (!more || full) {
      await deps.connections.recordSync(tenantId, 'hubspot', { at: new Date(deps.clock.now()).toISOString() });
      deps.logger?.info('HubSpot import done', {
        commandId: command.id,
        created: tally.created,
        updated: tally.updated,
        skipped: tally.skipped,
      });
      return {
        status: 'completed',
        result: { ...tally, limit_reached: tally.limit_reached || (more && full) },
      };
    }
    progress = { ...progress, tally, after: page.next, pages: progress.pages + 1 };
    await deps.commands.recordProgress(command.id, { progress }, deps.clock.now());
    if (deps.clock.now() - started >= (deps.pageBudgetMs ?? IMPORT_PAGE_BUDGET_MS)) return requeue(0);
  }
}

/** Why HubSpot refused the import for good (a token it no longer takes, an unknown list); undefined for anything else. */
function refusal(error: unknown): string | undefined {
  if (error instanceof CrmCredentialsError) return `HubSpot refused the connection's token (${error.reason}); connect again.`;
  if (error instanceof CrmRejectedError && error.status === 404) return `HubSpot has no such list (${error.reason}).`;
  return undefined;
}

/** Most times one import waits out HubSpot's rate limit (each up to 15 minutes) before it fails as RATE_LIMITED. */
export const MAX_RATE_LIMITED_WAITS = 12;

/** Most of a site's leads read to match contacts by e-mail (one query per page imported). */
export const MAX_LEADS_MATCHED_BY_EMAIL = 2_000;

/** The site's leads by lower-cased e-mail (the first {@link MAX_LEADS_MATCHED_BY_EMAIL}), read on first use. */
function siteLeadsByEmail(deps: ImportPhaseDependencies, siteId: string): () => Promise<Map<string, string>> {
  let read: Promise<Map<string, string>> | undefined;
  return () =>
    (read ??= deps.sites.listItems(siteId, 'leads', MAX_LEADS_MATCHED_BY_EMAIL).then((leads) => {
      const map = new Map<string, string>();
      for (const lead of leads) if (lead.email && !map.has(lead.email.toLowerCase())) map.set(lead.email.toLowerCase(), lead.id);
      return map;
    }));
}

/**
 * The lead a contact not yet linked becomes: the site's lead with its
 * e-mail (a site imported from a data file and from the CRM holds each
 * person once), linked to it; else a new lead. A lead already linked to
 * another of the tenant's contacts is not taken over: a new lead is made.
 */
async function linkByEmail(
  deps: ImportPhaseDependencies,
  tenantId: string,
  siteId: string,
  contactId: string,
  email: string | undefined,
  byEmail: () => Promise<Map<string, string>>,
): Promise<string> {
  const match = email ? (await byEmail()).get(email.toLowerCase()) : undefined;
  if (match) {
    try {
      return await deps.links.link(tenantId, siteId, match, contactId);
    } catch (error) {
      if (!(error instanceof LeadLinkedElsewhereError)) throw error;
    }
  }
  return deps.links.link(tenantId, siteId, newId(), contactId);
}

/** Upserts one page's contacts; the tally with them. */
async function upsertPage(
  deps: ImportPhaseDependencies,
  tenantId: string,
  siteId: string,
  page: Page,
  before: ImportTally,
): Promise<ImportTally> {
  const tally: ImportTally = { ...before, leads: [...before.leads], skips: [...before.skips] };
  const byEmail = siteLeadsByEmail(deps, siteId);
  const seen = new Set([...tally.leads, ...tally.skips].map((entry) => entry.hubspot_contact_id));
  const skip = (contactId: string, reason: ImportTally['skips'][number]['reason'], detail?: string) => {
    tally.skips.push({ hubspot_contact_id: contactId, reason, ...(detail ? { detail } : {}) });
    tally.skipped += 1;
  };
  for (const contactId of page.missing) {
    if (seen.has(contactId)) continue;
    seen.add(contactId);
    skip(contactId, 'not_found');
  }
  for (const contact of page.contacts) {
    if (seen.has(contact.id)) continue;
    if (tally.leads.length + tally.skips.length >= MAX_IMPORT_CONTACTS) {
      tally.limit_reached = true;
      continue;
    }
    seen.add(contact.id);
    const mapped = leadFieldsOf(contact);
    if (mapped.kind === 'skip') {
      skip(contact.id, mapped.reason, mapped.detail);
      continue;
    }
    let leadId: string;
    try {
      const linked = (await deps.links.leadOf(tenantId, contact.id)).find((lead) => lead.siteId === siteId);
      leadId = linked?.leadId ?? (await linkByEmail(deps, tenantId, siteId, contact.id, contact.email, byEmail));
    } catch (error) {
      if (!(error instanceof LeadLinkedElsewhereError)) throw error;
      deps.logger?.warn('Contact not imported: its lead is linked to another contact', { error: describeError(error) });
      skip(contact.id, 'link_conflict');
      continue;
    }
    const existing = await deps.sites.getItem(siteId, 'leads', leadId);
    await deps.sites.putItems(siteId, 'leads', [mergedLead(leadId, existing, mapped.fields)]);
    const action = existing ? 'updated' : 'created';
    tally.leads.push({ lead_id: leadId, hubspot_contact_id: contact.id, action });
    tally[action] += 1;
  }
  return tally;
}
