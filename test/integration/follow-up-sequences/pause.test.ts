/**
 * Pausing and resuming a lead's sequence against the embedded DynamoDB: the
 * real stores under the use cases and the dispatcher, with a clock the test moves.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { Principal } from '../../../shared/access/api-keys';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import { dynamoFollowUpStore, type StoredFollowUp } from '../../../shared/lead-follow-up/follow-up-store';
import { followUpId } from '../../../shared/lead-follow-up/follow-up-id';
import { dispatchDueFollowUps } from '../../../shared/lead-follow-up/sequences/dispatch';
import { answerListFollowUps } from '../../../shared/lead-follow-up/sequences/list';
import { answerPauseSequence, answerResumeSequence, type PauseDependencies } from '../../../shared/lead-follow-up/sequences/pause';
import { dynamoPauseStore } from '../../../shared/lead-follow-up/sequences/pause-store';
import { dynamoStepStore, type StepStore } from '../../../shared/lead-follow-up/sequences/step-store';
import { AppError } from '../../../shared/platform/errors';
import type { HttpResult } from '../../../shared/platform/http/types';
import { newId } from '../../../shared/platform/ids';
import { dynamoSiteDirectory } from '../../../shared/sites/dynamo-directory';
import { DEMO_DATA_FILE, importFile } from '../../../infra/local/provision';
import { recordingPublisher } from '../../support/recording-events';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RETENTION_MS = 90 * DAY;

const keyOf = (tenantId: string): Principal => ({ tenantId, siteIds: [SITE], keyId: `key-${tenantId}` });

let services: EmbeddedServices;
let steps: StepStore;
let deps: PauseDependencies;
let now = T0;
const clock = { now: () => now };
const logger = new Logger({ serviceName: 'test', logLevel: 'SILENT' });

/** A sequence of `count` email steps one day apart from `start`, saved as the sales phase saves it. */
async function saveSequence(tenantId: string, count = 3, start = T0): Promise<string[]> {
  const commandId = newId();
  const items: StoredFollowUp[] = Array.from({ length: count }, (_, index) => ({
    id: followUpId(commandId, index + 1),
    type: 'email',
    subject: `Step ${index + 1}`,
    content: `Hi Jordan, this is step ${index + 1} of our plan.`,
    scheduled_for: new Date(start + (index + 1) * DAY).toISOString(),
    status: 'scheduled',
    site_id: SITE,
    lead_id: LEAD,
    user_id: null,
    metadata: { next_steps: 'Call back', lead_stage: 'qualified', sequence_position: index + 1, template_used: 'email_follow_up' },
    tenant_id: tenantId,
    command_id: commandId,
    created_at: new Date(start).toISOString(),
    expires_at: Math.floor((start + (index + 1) * DAY + RETENTION_MS) / 1000),
  }));
  const at = new Date(start).toISOString();
  await dynamoCommandStore(services.db, services.aws.tableName).create({
    id: commandId,
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: tenantId,
    site_id: SITE,
    request: { siteId: SITE, leadId: LEAD, output: 'follow_up_sequence' },
    created_at: at,
    updated_at: at,
    attempts: 1,
  });
  await dynamoFollowUpStore(services.db, services.aws.tableName).saveSequence(items);
  return items.map((item) => item.id);
}

const data = (result: HttpResult) => (JSON.parse(result.body) as { data: Record<string, unknown> }).data;
const pause = (tenant: string, body: unknown = { site_id: SITE }) => answerPauseSequence(deps, keyOf(tenant), LEAD, body);
const resume = (tenant: string, body: unknown = { site_id: SITE }) => answerResumeSequence(deps, keyOf(tenant), LEAD, body);
const dispatch = () => dispatchDueFollowUps({ steps, events: recordingPublisher(), clock, logger });
const stepsOf = async (ids: string[]) => Promise.all(ids.map(async (id) => (await steps.get(id))!));

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  services = await startEmbeddedServices();
  await importFile(services.db, services.aws.tableName, DEMO_DATA_FILE);
  steps = dynamoStepStore(services.db, services.aws.tableName);
  deps = {
    sites: dynamoSiteDirectory(services.db, services.aws.tableName),
    steps,
    pauses: dynamoPauseStore(services.db, services.aws.tableName),
    clock,
    commandRetentionMs: RETENTION_MS,
  };
}, 60_000);

afterAll(async () => {
  await services.stop();
});

beforeEach(() => {
  now = T0;
});

describe('pausing a sequence', () => {
  it('keeps its steps scheduled and the dispatcher leaves them, however late it runs', async () => {
    const ids = await saveSequence('pause-a');
    expect(data(await pause('pause-a'))).toMatchObject({ paused: true, paused_at: new Date(T0).toISOString(), follow_ups_held: 3 });

    now = T0 + 5 * DAY;
    await dispatch();
    expect((await stepsOf(ids)).map((step) => step.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);

    const listed = data(await answerListFollowUps(deps, keyOf('pause-a'), LEAD, { site_id: SITE }));
    expect(listed).toMatchObject({ paused: true, paused_at: new Date(T0).toISOString() });
    expect((listed.follow_ups as { status: string }[]).map((step) => step.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
  });

  it('is one pause when asked twice (the first time kept), and touches no other tenant', async () => {
    const ids = await saveSequence('pause-b');
    const other = await saveSequence('pause-c');
    await pause('pause-b');
    now = T0 + HOUR;
    expect(data(await pause('pause-b'))).toMatchObject({ paused: true, paused_at: new Date(T0).toISOString(), follow_ups_held: 0 });

    now = T0 + 2 * DAY + HOUR;
    await dispatch();
    expect((await stepsOf(ids)).map((step) => step.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    expect((await stepsOf(other)).map((step) => step.status)).toEqual(['due', 'due', 'scheduled']);
    expect(data(await answerListFollowUps(deps, keyOf('pause-c'), LEAD, { site_id: SITE }))).toMatchObject({
      paused: false,
      paused_at: null,
    });
  });

  it('is never made due by a dispatcher that read the index before the pause', async () => {
    const [id] = await saveSequence('pause-e', 1);
    expect(await steps.hold(id!, { tenantId: 'pause-e', pausedAt: new Date(T0).toISOString(), at: new Date(T0).toISOString() })).toBe(true);
    expect(await steps.markDue(id!, new Date(T0 + 2 * DAY).toISOString())).toBeUndefined();
    expect((await steps.get(id!))!.status).toBe('scheduled');
  });

  it('refuses a body without a site, or a lead that is not the site', async () => {
    expect(await refusal(() => pause('pause-d', {}))).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await refusal(() => pause('pause-d', { site_id: SITE, extra: 1 }))).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(
      await refusal(() => answerPauseSequence(deps, keyOf('pause-d'), '00000000-0000-4000-8000-000000000000', { site_id: SITE })),
    ).toMatchObject({ code: 'LEAD_NOT_FOUND' });
    expect(data(await answerListFollowUps(deps, keyOf('pause-d'), LEAD, { site_id: SITE }))).toMatchObject({ paused: false });
  });
});

describe('resuming a sequence', () => {
  it("moves every held step forward by the pause's length, spacing kept, and dispatches no burst", async () => {
    // Steps at T0+1d, +2d, +3d; paused at T0+12h for 3 days: two steps' times pass during the pause.
    const ids = await saveSequence('resume-a');
    const before = (await stepsOf(ids)).map((step) => Date.parse(step.scheduled_for));
    now = T0 + 12 * HOUR;
    await pause('resume-a');
    now = T0 + 12 * HOUR + 3 * DAY;
    await dispatch();

    const resumed = data(await resume('resume-a'));
    expect(resumed).toMatchObject({ paused: false, shifted_by_seconds: (3 * DAY) / 1000, follow_ups_moved: 3 });
    const after = await stepsOf(ids);
    expect(after.map((step) => Date.parse(step.scheduled_for))).toEqual(before.map((time) => time + 3 * DAY));
    expect(after.every((step) => step.paused_at === undefined && step.status === 'scheduled')).toBe(true);
    expect(after.map((step) => step.expires_at)).toEqual(before.map((time) => Math.floor((time + 3 * DAY + RETENTION_MS) / 1000)));

    // Right after the resume nothing is due: the first step stands 12 hours ahead, as it stood at the pause.
    await dispatch();
    expect((await stepsOf(ids)).map((step) => step.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    now += 12 * HOUR;
    await dispatch();
    expect((await stepsOf(ids)).map((step) => step.status)).toEqual(['due', 'scheduled', 'scheduled']);
    now += DAY;
    await dispatch();
    expect((await stepsOf(ids)).map((step) => step.status)).toEqual(['due', 'due', 'scheduled']);
    expect(data(await answerListFollowUps(deps, keyOf('resume-a'), LEAD, { site_id: SITE }))).toMatchObject({ paused: false });
  });

  it('answers 409 INVALID_TRANSITION when the sequence is not paused, and changes nothing', async () => {
    const ids = await saveSequence('resume-b');
    const before = await stepsOf(ids);
    expect(await refusal(() => resume('resume-b'))).toMatchObject({ code: 'INVALID_TRANSITION', statusCode: 409 });
    await pause('resume-b');
    await resume('resume-b');
    expect(await refusal(() => resume('resume-b'))).toMatchObject({ code: 'INVALID_TRANSITION' });
    expect((await stepsOf(ids)).map((step) => step.scheduled_for)).toEqual(before.map((step) => step.scheduled_for));
  });

  it("leaves steps a lead event cancelled during the pause cancelled, and another tenant's pause alone", async () => {
    const ids = await saveSequence('resume-c');
    const other = await saveSequence('resume-d');
    await pause('resume-c');
    await pause('resume-d');
    await steps.change(ids[0]!, { at: new Date(T0).toISOString(), status: 'cancelled' }, { tenantId: 'resume-c', statuses: ['scheduled'] });
    now = T0 + DAY;
    expect(data(await resume('resume-c'))).toMatchObject({ follow_ups_moved: 2 });
    expect((await steps.get(ids[0]!))!.status).toBe('cancelled');
    expect((await stepsOf(other)).every((step) => step.paused_at !== undefined)).toBe(true);
    expect(data(await answerListFollowUps(deps, keyOf('resume-d'), LEAD, { site_id: SITE }))).toMatchObject({ paused: true });
  });
});
