import { Logger } from '@aws-lambda-powertools/logger';
import type { SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { createCommandAdmission } from '../../../shared/access/limits/admission';
import type { TenantLimits } from '../../../shared/access/limits/tenant-limits';
import { finishCommand } from '../../../shared/commands/finish';
import { dynamoIdempotencyStore } from '../../../shared/commands/idempotency';
import type { JobQueue } from '../../../shared/commands/queue';
import { startCommand } from '../../../shared/commands/start';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import type { CommandStore } from '../../../shared/commands/store';
import { processJobRecord, type JobDefinition, type WorkerDependencies } from '../../../shared/commands/worker';
import { systemClock } from '../../../shared/platform/clock';
import { AppError } from '../../../shared/platform/errors';
import { newId } from '../../../shared/platform/ids';
import { usageDay, usageMonth } from '../../../shared/usage/dynamo-ledger';
import { dynamoUsageTotals } from '../../../shared/usage/dynamo-usage-totals';
import { recordUsage } from '../../../shared/usage/meter';
import { modelTokens, usageView } from '../../../shared/usage/usage';
import { inMemoryTenants } from '../../unit/lead-follow-up/fixtures';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

/**
 * The kernel's side of usage and limits, with a test phase on the embedded
 * DynamoDB: what a phase's providers record is written with the command's
 * own writes (so a job delivered again, or run again after a crash, counts
 * it once), and a producer's job over its tenant's in-progress limit waits
 * on its queue instead of being lost or dead-lettered.
 */
const requestSchema = z.object({ site_id: z.string(), behaviour: z.enum(['metered', 'crash-after-progress', 'quick']).default('quick') });
type TestRequest = z.infer<typeof requestSchema>;
const progressSchema = z.object({ step: z.number() }).partial();

let services: EmbeddedServices;
let commands: CommandStore;
let deps: WorkerDependencies;
const limits: Record<string, TenantLimits> = { 'tenant-p': { in_progress: 1 }, 'tenant-burst': { in_progress: 6 } };
const resent: { body: string; delaySeconds: number | undefined; attempt: number | undefined }[] = [];
const counted: string[] = [];
const runs = new Map<string, number>();

const definition: JobDefinition<TestRequest, z.infer<typeof progressSchema>> = {
  type: 'lead_follow_up',
  kind: { type: 'lead_follow_up', request: requestSchema, progress: progressSchema },
  parseProducerRequest(request) {
    const parsed = requestSchema.safeParse(request);
    if (!parsed.success) throw new AppError('INVALID_REQUEST', 'bad request');
    return parsed.data;
  },
  siteIdOf: (request) => request.site_id,
  async run({ command, request, attempt }) {
    runs.set(command.id, (runs.get(command.id) ?? 0) + 1);
    if (request.behaviour === 'metered') {
      recordUsage(modelTokens('gpt-test', 100, 20));
      await commands.recordProgress(command.id, { progress: { step: 1 } }, Date.now());
      recordUsage(modelTokens('gpt-test', 1, 1));
    }
    if (request.behaviour === 'crash-after-progress' && command.progress?.step === undefined) {
      recordUsage(modelTokens('gpt-test', 50, 5));
      await commands.recordProgress(command.id, { progress: { step: 1 } }, Date.now());
      if (attempt === 1) throw new Error('the process died here');
    }
    return { status: 'completed', result: { ok: true } };
  },
};

beforeAll(async () => {
  services = await startEmbeddedServices();
  const { db } = services;
  const tableName = services.aws.tableName;
  commands = dynamoCommandStore(db, tableName);
  const queue: JobQueue = {
    send: async () => undefined,
    sendAgain: async (_queue, body, delaySeconds, attempt) => {
      resent.push({ body, delaySeconds, attempt });
    },
    sendToDeadLetter: async () => {
      throw new Error('nothing here may be dead-lettered');
    },
  };
  deps = {
    commands,
    idempotency: dynamoIdempotencyStore(db, tableName),
    tenants: inMemoryTenants({ 'tenant-a': ['site-1'], 'tenant-p': ['site-9'] }, limits),
    queue,
    clock: systemClock,
    logger: new Logger({ serviceName: 'test', logLevel: 'SILENT' }),
    leaseMs: 60_000,
    maxReceiveCount: 5,
    retryDelaysSeconds: [0],
    metrics: { count: (metric, type) => counted.push(`${metric}:${type}`) },
    admission: createCommandAdmission({
      tenantLimits: async (tenantId) => limits[tenantId],
      totals: dynamoUsageTotals(db, tableName),
      defaults: {},
      clock: systemClock,
    }),
  };
});
afterAll(() => services.stop());

const record = (body: Record<string, unknown>, messageId = newId()): SQSRecord =>
  ({ messageId, body: JSON.stringify({ version: 1, ...body }), attributes: {}, messageAttributes: {} }) as unknown as SQSRecord;

async function newCommand(request: TestRequest): Promise<string> {
  const { command } = await startCommand(
    { ...deps, queue: { send: async () => undefined } },
    {
      type: 'lead_follow_up',
      tenantId: 'tenant-a',
      siteId: request.site_id,
      request,
    },
  );
  return command.id;
}

const inProgressOf = (tenantId: string) => dynamoUsageTotals(services.db, services.aws.tableName).inProgress(tenantId);

describe('usage written with the command', () => {
  it('counts what a phase recorded once, on the command and its tenant, even when the job is delivered again', async () => {
    const totals = dynamoUsageTotals(services.db, services.aws.tableName);
    const monthBefore = usageView(await totals.month('tenant-a', usageMonth(Date.now()))).model_tokens;
    const id = await newCommand({ site_id: 'site-1', behaviour: 'metered' });
    const job = record({ type: 'lead_follow_up', tenant_id: 'tenant-a', command_id: id });

    await processJobRecord(definition, deps, job);
    await processJobRecord(definition, deps, job);

    expect(runs.get(id)).toBe(1);
    expect(usageView(await commands.usageOf(id)).model_tokens).toEqual({
      input: 101,
      output: 21,
      by_model: { 'gpt-test': { input: 101, output: 21 } },
    });
    const month = usageView(await totals.month('tenant-a', usageMonth(Date.now()))).model_tokens;
    expect(month.input - monthBefore.input).toBe(101);
    expect(month.output - monthBefore.output).toBe(21);
    const today = (await totals.days('tenant-a', usageDay(Date.now()), usageDay(Date.now()))).filter(
      (day) => day.type === 'lead_follow_up' && day.siteId === 'site-1',
    );
    expect(today.length).toBe(1);
  });

  it('keeps usage written with progress before a crash, and counts it once when the job runs again', async () => {
    const id = await newCommand({ site_id: 'site-1', behaviour: 'crash-after-progress' });
    const job = record({ type: 'lead_follow_up', tenant_id: 'tenant-a', command_id: id });

    await processJobRecord(definition, deps, job);
    expect(resent.at(-1)).toMatchObject({ attempt: 2 });
    await processJobRecord(definition, deps, { ...job, messageAttributes: { attempt: { stringValue: '2', dataType: 'Number' } } });

    expect((await commands.get(id))?.status).toBe('completed');
    expect(runs.get(id)).toBe(2);
    expect(usageView(await commands.usageOf(id)).model_tokens.by_model).toEqual({ 'gpt-test': { input: 50, output: 5 } });
  });
});

describe('a producer job over its tenant limit', () => {
  it('waits on its queue, delayed and counted, creates nothing, and runs once a place is free', async () => {
    // The tenant's one place is taken by a command it started.
    const { command: holder } = await startCommand(
      { ...deps, queue: { send: async () => undefined } },
      {
        type: 'lead_follow_up',
        tenantId: 'tenant-p',
        siteId: 'site-9',
        request: { site_id: 'site-9' },
      },
    );
    expect(await inProgressOf('tenant-p')).toBe(1);
    const job = record({ type: 'lead_follow_up', tenant_id: 'tenant-p', request: { site_id: 'site-9' }, idempotency_key: 'producer-0001' });
    resent.length = 0;

    await processJobRecord(definition, deps, job);

    expect(resent).toEqual([{ body: job.body, delaySeconds: 5, attempt: 1 }]);
    expect(counted).toContain('JobDelayedByLimit:lead_follow_up');
    expect(await inProgressOf('tenant-p')).toBe(1);

    // Its key was given back: once the place is free, the same job starts its command and runs it.
    expect(await finishCommand(deps, holder, { status: 'completed', result: {} })).toBe(true);
    expect(await inProgressOf('tenant-p')).toBe(0);
    await processJobRecord(definition, deps, job);
    expect(resent).toHaveLength(1);
    expect(await inProgressOf('tenant-p')).toBe(0);
    expect(counted.filter((line) => line === 'CommandCompleted:lead_follow_up').length).toBeGreaterThanOrEqual(2);
  });
});

describe('an in-progress limit spread over shards', () => {
  it('takes exactly the limit from a burst of concurrent starts, and refuses the rest', async () => {
    const starts = await Promise.allSettled(
      Array.from({ length: 15 }, () =>
        startCommand(
          { ...deps, queue: { send: async () => undefined } },
          { type: 'lead_follow_up', tenantId: 'tenant-burst', siteId: 'site-9', request: { site_id: 'site-9' } },
        ),
      ),
    );
    const accepted = starts.filter((start) => start.status === 'fulfilled');
    const refused = starts.filter((start) => start.status === 'rejected').map((start) => start.reason);
    expect(accepted).toHaveLength(6);
    expect(refused).toHaveLength(9);
    for (const reason of refused) expect(reason).toMatchObject({ code: 'RATE_LIMITED', limit: 'in_progress' });
    expect(await inProgressOf('tenant-burst')).toBe(6);
    const places = accepted.map((start) => (start as PromiseFulfilledResult<{ command: { in_progress_place?: number } }>).value.command);
    expect(new Set(places.map((command) => command.in_progress_place))).toEqual(new Set([0, 1, 2, 3]));
  });
});
