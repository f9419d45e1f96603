/**
 * GET /api/follow-ups on the embedded DynamoDB: sequences saved as the sales
 * phase saves them on two leads of one site, made due by the dispatcher and
 * moved by an edit, listed across the site through its index partition (gsi3).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../../../shared/access/api-keys';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import { dynamoFollowUpStore, type StoredFollowUp } from '../../../shared/lead-follow-up/follow-up-store';
import { followUpId } from '../../../shared/lead-follow-up/follow-up-id';
import { dispatchDueFollowUps } from '../../../shared/lead-follow-up/sequences/dispatch';
import { answerEditFollowUp } from '../../../shared/lead-follow-up/sequences/edit';
import { answerListSiteFollowUps } from '../../../shared/lead-follow-up/sequences/list-site';
import { dynamoStepStore } from '../../../shared/lead-follow-up/sequences/step-store';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { AppError } from '../../../shared/platform/errors';
import { newId } from '../../../shared/platform/ids';
import { dynamoSiteDirectory } from '../../../shared/sites/dynamo-directory';
import { DEMO_DATA_FILE, importFile } from '../../../infra/local/provision';
import { recordingPublisher } from '../../support/recording-events';
import { startCountingProxy, type CountingProxy } from '../../support/counting-proxy';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const OTHER_LEAD = 'e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8091';
const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 86_400_000;
const RETENTION_MS = 90 * DAY;
const TENANT_A: Principal = { tenantId: 'site-list-a', siteIds: [SITE], keyId: 'key-a' };
const TENANT_B: Principal = { tenantId: 'site-list-b', siteIds: [SITE], keyId: 'key-b' };

let services: EmbeddedServices;
let proxy: CountingProxy;
let db: DynamoDBDocumentClient;
let now = T0;
const clock = { now: () => now };
const logger = new Logger({ serviceName: 'test', logLevel: 'SILENT' });

/** A sequence of `count` email steps, `gap` apart from `start`, saved while its command is in progress (as the sales phase saves it). */
async function saveSequence(tenantId: string, leadId: string, start: number, count = 3, gap = DAY): Promise<string[]> {
  const commandId = newId();
  const at = new Date(T0).toISOString();
  const items: StoredFollowUp[] = Array.from({ length: count }, (_, index) => ({
    id: followUpId(commandId, index + 1),
    type: 'email',
    subject: `Step ${index + 1}`,
    content: `Hi, this is step ${index + 1}.`,
    scheduled_for: new Date(start + index * gap).toISOString(),
    status: 'scheduled',
    site_id: SITE,
    lead_id: leadId,
    user_id: null,
    metadata: { next_steps: 'Call back', lead_stage: 'qualified', sequence_position: index + 1, template_used: 'email_follow_up' },
    tenant_id: tenantId,
    command_id: commandId,
    created_at: at,
    updated_at: at,
    expires_at: Math.floor((start + index * gap + RETENTION_MS) / 1000),
  }));
  await dynamoCommandStore(services.db, services.aws.tableName).create({
    id: commandId,
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: tenantId,
    site_id: SITE,
    request: { siteId: SITE, leadId, output: 'follow_up_sequence' },
    created_at: at,
    updated_at: at,
    attempts: 1,
  });
  await dynamoFollowUpStore(services.db, services.aws.tableName).saveSequence(items);
  return items.map((item) => item.id);
}

type Page = {
  site_id: string;
  follow_ups: { id: string; lead_id: string; status: string; scheduled_for: string }[];
  next_cursor: string | null;
};

const deps = () => ({
  sites: dynamoSiteDirectory(db, services.aws.tableName),
  steps: dynamoStepStore(db, services.aws.tableName),
  clock,
});
const list = async (principal: Principal, query: Record<string, string>): Promise<Page> => {
  const answer = await answerListSiteFollowUps(deps(), principal, query);
  expect(answer.statusCode).toBe(200);
  return (JSON.parse(answer.body) as { data: Page }).data;
};
const walk = async (principal: Principal, query: Record<string, string>) => {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: Page = await list(principal, { ...query, ...(cursor ? { cursor } : {}) });
    ids.push(...page.follow_ups.map((step) => step.id));
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor !== null && pages < 50);
  return ids;
};
const refusal = (principal: Principal, query: Record<string, string>) =>
  answerListSiteFollowUps(deps(), principal, query).then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    },
  );

let leadSteps: string[];
let otherLeadSteps: string[];

beforeAll(async () => {
  services = await startEmbeddedServices();
  await importFile(services.db, services.aws.tableName, DEMO_DATA_FILE);
  proxy = await startCountingProxy();
  proxy.forwardTo(services.aws.dynamodbEndpoint);
  db = createDocumentClient({ endpoint: proxy.url, region: services.aws.region });
  // Interleaved in time across the two leads: 1 h apart on one, offset by 30 min on the other.
  leadSteps = await saveSequence(TENANT_A.tenantId, LEAD, T0 + HOUR, 3, HOUR);
  otherLeadSteps = await saveSequence(TENANT_A.tenantId, OTHER_LEAD, T0 + HOUR + HOUR / 2, 3, HOUR);
  await saveSequence(TENANT_B.tenantId, LEAD, T0 + HOUR, 2, HOUR);
}, 60_000);

afterAll(async () => {
  db.destroy();
  await proxy.close();
  await services.stop();
});

describe('GET /api/follow-ups', () => {
  it("lists the tenant's steps across the site's leads in schedule order, page by page, and polls status=due", async () => {
    const everyStep = [leadSteps[0], otherLeadSteps[0], leadSteps[1], otherLeadSteps[1], leadSteps[2], otherLeadSteps[2]];
    expect(await walk(TENANT_A, { site_id: SITE, limit: '4' })).toEqual(everyStep);
    expect(await walk(TENANT_A, { site_id: SITE.toUpperCase(), limit: '1' })).toEqual(everyStep);
    expect(await list(TENANT_A, { site_id: SITE, status: 'due' })).toMatchObject({ site_id: SITE, follow_ups: [], next_cursor: null });

    // Three steps' time comes (two on one lead, one on the other): the dispatcher makes them due.
    now = T0 + 2 * HOUR + HOUR / 4;
    await dispatchDueFollowUps({
      steps: dynamoStepStore(services.db, services.aws.tableName),
      events: recordingPublisher(),
      clock,
      logger,
    });
    const due = await list(TENANT_A, { site_id: SITE, status: 'due' });
    expect(due.follow_ups.map((step) => [step.id, step.lead_id, step.status])).toEqual([
      [leadSteps[0], LEAD, 'due'],
      [otherLeadSteps[0], OTHER_LEAD, 'due'],
      [leadSteps[1], LEAD, 'due'],
    ]);
    expect(await walk(TENANT_A, { site_id: SITE, status: 'scheduled,due', limit: '2' })).toEqual(everyStep);
    expect(await walk(TENANT_A, { site_id: SITE, status: 'scheduled' })).toEqual([otherLeadSteps[1], leadSteps[2], otherLeadSteps[2]]);

    // Another tenant on the same site sees its own steps only.
    const other = await walk(TENANT_B, { site_id: SITE });
    expect(other).toHaveLength(2);
    expect(other.some((id) => everyStep.includes(id))).toBe(false);
  });

  it("keeps a step's place when an edit moves it", async () => {
    const moved = otherLeadSteps[2]!;
    const earlier = new Date(T0 + 3 * HOUR - HOUR / 4).toISOString();
    const edited = await answerEditFollowUp(
      { steps: dynamoStepStore(services.db, services.aws.tableName), clock, commandRetentionMs: RETENTION_MS },
      TENANT_A,
      moved,
      { scheduled_for: earlier },
    );
    expect(edited.statusCode).toBe(200);
    const scheduled = await list(TENANT_A, { site_id: SITE, status: 'scheduled' });
    expect(scheduled.follow_ups.map((step) => step.id)).toEqual([otherLeadSteps[1], moved, leadSteps[2]]);
    expect(scheduled.follow_ups[1]!.scheduled_for).toBe(earlier);
  });

  it('reads the index only (Query, never Scan), besides the key and the site', async () => {
    proxy.reset();
    await list(TENANT_A, { site_id: SITE, status: 'due', limit: '100' });
    const counts = proxy.counts();
    expect(Object.keys(counts).sort()).toEqual(['GetItem', 'Query']);
    expect(counts.Scan).toBeUndefined();
  });

  it('refuses a missing or malformed site, one the key does not cover, and bad paging, changing nothing', async () => {
    expect(await refusal(TENANT_A, {})).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [expect.objectContaining({ path: ['site_id'] })],
    });
    expect(await refusal(TENANT_A, { site_id: 'site-1' })).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await refusal(TENANT_A, { site_id: newId() })).toMatchObject({ code: 'SITE_NOT_FOUND' });
    expect(await refusal({ ...TENANT_A, siteIds: [] }, { site_id: SITE })).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(TENANT_A, { site_id: SITE, limit: '0' })).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await refusal(TENANT_A, { site_id: SITE, limit: '101' })).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await refusal(TENANT_A, { site_id: SITE, limit: 'ten' })).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'limit: must be a whole number from 1 to 100',
    });
    expect(await refusal(TENANT_A, { site_id: SITE, status: 'late' })).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await refusal(TENANT_A, { site_id: SITE, cursor: 'abc' })).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await refusal(TENANT_A, { siteId: SITE })).toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
