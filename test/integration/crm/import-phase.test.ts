import { dynamoLeadLinks } from '../../../shared/crm/dynamo-lead-links';
import type { CrmImportProgress } from '../../../shared/crm/import-progress';
import { MAX_RATE_LIMITED_WAITS, runImportPhase, type ImportPhaseDependencies } from '../../../shared/crm/import-phase';
import type { CrmImportRequest } from '../../../shared/crm/import-request';
import type { PhaseInput } from '../../../shared/commands/worker';
import { DEFAULT_LEAD_STATUS_MAP } from '../../../shared/crm/lead-status';
import { dynamoSiteDirectory } from '../../../shared/sites/dynamo-directory';
import { hubspotCrm } from '../../../shared/providers/crm/hubspot';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

/**
 * The import phase run directly (a plain-object command store and queue
 * that record what it asks of them), against the embedded table and the
 * loopback HubSpot: how it waits out HubSpot, and how it goes on from the
 * progress a job kept.
 */
const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';

let services: EmbeddedServices;
let hubspot: HubSpotFake;
beforeAll(async () => {
  [services, hubspot] = await Promise.all([startEmbeddedServices(), startHubSpotFake()]);
});
afterAll(async () => {
  await hubspot.close();
  await services.stop();
});
afterEach(() => hubspot.heal());

function harness(pageBudgetMs?: number) {
  const kept: CrmImportProgress[] = [];
  const released: string[] = [];
  const sent: { queue: string; body: string; delaySeconds: number; attempt: number }[] = [];
  const deps: ImportPhaseDependencies = {
    connections: {
      credentials: async (tenantId) => ({
        connection: {
          tenant_id: tenantId,
          provider: 'hubspot',
          portal_id: String(hubspot.portalId),
          scopes: [],
          lead_status_map: DEFAULT_LEAD_STATUS_MAP,
          connected_at: '2026-11-26T00:00:00.000Z',
          updated_at: '2026-11-26T00:00:00.000Z',
          has_client_secret: false,
        },
        secrets: { accessToken: hubspot.token },
      }),
      recordSync: async () => true,
    },
    crm: hubspotCrm({ baseUrl: hubspot.baseUrl }),
    links: dynamoLeadLinks(services.db, services.aws.tableName, 'hubspot'),
    sites: dynamoSiteDirectory(services.db, services.aws.tableName),
    commands: {
      recordProgress: async (_id, patch) => {
        kept.push(patch.progress as CrmImportProgress);
        return true;
      },
      release: async (id) => {
        released.push(id);
      },
    },
    queue: { sendAgain: async (queue, body, delaySeconds, attempt) => void sent.push({ queue, body, delaySeconds, attempt }) },
    clock: { now: () => Date.now() },
    ...(pageBudgetMs === undefined ? {} : { pageBudgetMs }),
  };
  return { deps, kept, released, sent };
}

function input(request: CrmImportRequest, progress: CrmImportProgress = {}): PhaseInput<CrmImportRequest, CrmImportProgress> {
  const command = {
    id: 'import-1',
    type: 'crm_import' as const,
    status: 'in_progress' as const,
    tenant_id: 'acme',
    site_id: SITE,
    request,
    progress,
    created_at: '2026-11-26T00:00:00.000Z',
    updated_at: '2026-11-26T00:00:00.000Z',
    attempts: 1,
  };
  return { command, request, job: { v: 1, type: 'crm_import', tenant_id: 'acme', command_id: command.id } as never, attempt: 2 };
}

describe('runImportPhase', () => {
  it('queues the job again after a long Retry-After, delayed by it, instead of failing', async () => {
    const id = hubspot.addContact({ email: 'wait@ratelimit.example' });
    hubspot.failNext(1, { rateLimited: { retryAfterSeconds: 120 } }, '/contacts/batch/read');
    const { deps, released, sent } = harness();

    const outcome = await runImportPhase(deps, input({ site_id: SITE, source: { kind: 'contacts', contact_ids: [id] } }));

    expect(outcome).toEqual({ status: 'handed_off' });
    expect(released).toEqual(['import-1']);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ queue: 'crm', delaySeconds: 120, attempt: 2 });
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ type: 'crm_import', tenant_id: 'acme', command_id: 'import-1' });
  });

  it('counts the waits HubSpot asks for, and fails the import as RATE_LIMITED past its most, queuing nothing', async () => {
    const id = hubspot.addContact({ email: 'always@ratelimit.example' });
    const request: CrmImportRequest = { site_id: SITE, source: { kind: 'contacts', contact_ids: [id] } };
    hubspot.failNext(1, { rateLimited: { retryAfterSeconds: 120 } }, '/contacts/batch/read');
    const waited = harness();
    expect(await runImportPhase(waited.deps, input(request, { waits: 3 }))).toEqual({ status: 'handed_off' });
    expect(waited.kept.at(-1)).toMatchObject({ waits: 4 });

    hubspot.failNext(1, { rateLimited: { retryAfterSeconds: 120 } }, '/contacts/batch/read');
    const { deps, sent, released } = harness();
    const outcome = await runImportPhase(deps, input(request, { waits: MAX_RATE_LIMITED_WAITS }));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'RATE_LIMITED', message: expect.stringContaining('12 times') } });
    expect(sent).toEqual([]);
    expect(released).toEqual([]);
  });

  it('keeps its progress after each page and, run again from it, never reads a finished page again', async () => {
    const members = Array.from({ length: 150 }, (_, index) => hubspot.addContact({ email: `paged${index}@progress.example` }));
    hubspot.setList('501', members);
    const request: CrmImportRequest = { site_id: SITE, source: { kind: 'list', list_id: '501' } };
    const first = harness(0);

    expect(await runImportPhase(first.deps, input(request))).toEqual({ status: 'handed_off' });
    expect(first.sent).toEqual([expect.objectContaining({ delaySeconds: 0 })]);
    expect(first.kept).toHaveLength(1);
    expect(first.kept[0]).toMatchObject({ after: '100', pages: 1, tally: { created: 100 } });

    const before = hubspot.requests.length;
    const second = harness();
    const outcome = await runImportPhase(second.deps, input(request, first.kept[0]));

    expect(outcome).toMatchObject({ status: 'completed', result: { created: 150, updated: 0, skipped: 0 } });
    const pages = hubspot.requests.slice(before).filter((request) => request.path.endsWith('/lists/501/memberships'));
    expect(pages.map((request) => request.query.after)).toEqual(['100']);
  });
});
