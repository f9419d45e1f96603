/**
 * The table exactly as the prod template declares it (its index projects
 * only some attributes), on the embedded DynamoDB, under the code that
 * reads through the indexes: the janitor, the due follow-ups, a lead's and a site's follow-ups, a tenant's commands.
 */
import type { AddressInfo, Server } from 'node:net';
import { CreateTableCommand, DynamoDBClient, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Server as HttpServer } from 'node:http';
import dynalite from 'dynalite';
import { addTransactions } from '../../infra/local/dynalite-transactions';
import { TABLE } from '../../shared/catalogue/table';
import { sweepCommands } from '../../shared/commands/janitor';
import type { JobEnvelope } from '../../shared/commands/job';
import type { StoredCommand } from '../../shared/commands/record';
import type { CommandStore } from '../../shared/commands/store';
import { dynamoCommandListing } from '../../shared/commands/dynamo-listing';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { dynamoFollowUpStore, type StoredFollowUp } from '../../shared/lead-follow-up/follow-up-store';
import { followUpId } from '../../shared/lead-follow-up/follow-up-id';
import { dynamoStepStore } from '../../shared/lead-follow-up/sequences/step-store';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { newId } from '../../shared/platform/ids';
import { synthesizedTemplates } from '../infra/template-json';

const TABLE_NAME = 'projection-test';
const T0 = Date.parse('2026-11-23T10:00:00Z');
const MINUTE = 60_000;
const SITE_ID = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';

let server: Server;
let db: DynamoDBDocumentClient;
let commands: CommandStore;

/** CreateTable input from the template's AWS::DynamoDB::Table: keys, attributes and indexes as deployed. */
async function tableFromTemplate(): Promise<CreateTableCommandInput> {
  const { json } = await synthesizedTemplates('prod');
  const [table] = Object.values(json.stateful.Resources).filter((resource) => resource.Type === 'AWS::DynamoDB::Table');
  const properties = table!.Properties as Pick<CreateTableCommandInput, 'KeySchema' | 'AttributeDefinitions' | 'GlobalSecondaryIndexes'>;
  return {
    TableName: TABLE_NAME,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: properties.KeySchema,
    AttributeDefinitions: properties.AttributeDefinitions,
    GlobalSecondaryIndexes: properties.GlobalSecondaryIndexes,
  };
}

beforeAll(async () => {
  const input = await tableFromTemplate();
  expect(input.GlobalSecondaryIndexes?.[0]?.Projection?.ProjectionType).toBe('INCLUDE');
  server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  addTransactions(server as HttpServer, [TABLE.partitionKey, TABLE.sortKey]);
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const options = { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const client = new DynamoDBClient(options);
  await client.send(new CreateTableCommand(input));
  client.destroy();
  db = createDocumentClient(options);
  commands = dynamoCommandStore(db, TABLE_NAME);
}, 60_000);

afterAll(async () => {
  db.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** A command with large fields beside the kernel's, which the index must not project. */
type BulkyCommand = StoredCommand<{ context: unknown; targets: unknown[] }>;

async function command(createdAt: number, overrides: Partial<BulkyCommand> = {}): Promise<BulkyCommand> {
  const at = new Date(createdAt).toISOString();
  const record: BulkyCommand = {
    id: newId(),
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: 'tenant-p',
    site_id: 'site-1',
    request: { siteId: 'site-1', leadId: 'lead-1', notes: 'x'.repeat(2000) },
    context: { lead: { name: 'Ada' } },
    targets: [{ id: 'lead-1' }],
    created_at: at,
    updated_at: at,
    attempts: 0,
    ...overrides,
  };
  // A child phase is written only while its parent exists, and a sequence's steps only while their command is in progress.
  if (record.parent_id)
    await commands.create({
      ...record,
      id: record.parent_id,
      parent_id: undefined,
      created_at: '2000-01-01T00:00:00.000Z',
      status: 'completed',
    });
  await commands.create(record);
  return record;
}

/** A command in progress under `id`, for steps saved as the sales phase saves them. */
async function owner(id: string): Promise<void> {
  const at = new Date(T0).toISOString();
  await commands.create({
    id,
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: 'tenant-p',
    site_id: 'site-1',
    request: {},
    created_at: at,
    updated_at: at,
    attempts: 1,
  });
}

describe('the index as deployed', () => {
  it('lists commands in progress with what the janitor reads (and site_id, projected for follow-ups), without their request or context', async () => {
    const stored = await command(T0, { parent_id: 'parent-1', requeued_at: new Date(T0 + MINUTE).toISOString() });
    const listed = (await commands.listInProgress(new Date(T0 + 5 * MINUTE).toISOString(), 100)).find((c) => c.id === stored.id);
    expect(listed).toEqual({
      id: stored.id,
      type: 'lead_follow_up',
      status: 'in_progress',
      tenant_id: 'tenant-p',
      parent_id: 'parent-1',
      site_id: 'site-1',
      attempts: 0,
      created_at: stored.created_at,
      updated_at: stored.updated_at,
      requeued_at: stored.requeued_at,
    });
  });

  it("lists a tenant's commands in their short form through gsi3, the error's code without its details, no child phase", async () => {
    const failed = await command(T0 + 10 * MINUTE, { tenant_id: 'tenant-list', site_id: SITE_ID });
    const child = await command(T0 + 11 * MINUTE, { tenant_id: 'tenant-list', parent_id: newId(), type: 'copywriter' });
    const error = {
      code: 'SEARCH_FAILED' as const,
      message: 'The search failed.',
      details: [{ code: 'x', message: 'y'.repeat(500), path: [] }],
    };
    expect(await commands.fail(failed, error, T0 + 12 * MINUTE)).toBe(true);
    const page = await dynamoCommandListing(db, TABLE_NAME).listForTenant({
      tenantId: 'tenant-list',
      limit: 10,
      now: T0,
      // The child's parent, which the helper writes first, was created long before.
      createdAfter: new Date(T0).toISOString(),
    });
    expect(page).toEqual({
      commands: [
        {
          id: failed.id,
          type: 'lead_follow_up',
          status: 'failed',
          site_id: SITE_ID,
          created_at: failed.created_at,
          updated_at: new Date(T0 + 12 * MINUTE).toISOString(),
          finished_at: new Date(T0 + 12 * MINUTE).toISOString(),
          error: { code: 'SEARCH_FAILED' },
        },
      ],
    });
    expect(page.commands.some((listed) => listed.id === child.id)).toBe(false);
  });

  it('is enough for the janitor: it fails the stuck command and queues the stranded one again', async () => {
    const stuck = await command(T0 - 2 * 60 * MINUTE, { parent_id: 'parent-2' });
    const stranded = await command(T0 - 20 * MINUTE);
    const sent: { queue: string; job: JobEnvelope }[] = [];
    const finished: unknown[] = [];
    const report = await sweepCommands({
      commands,
      queue: {
        async send(queue, job) {
          sent.push({ queue, job });
        },
      },
      clock: { now: () => T0 },
      logger: new Logger({ serviceName: 'test', logLevel: 'SILENT' }),
      onFinished: [
        async (finishedCommand) => {
          finished.push(finishedCommand);
        },
      ],
    });

    expect(report).toMatchObject({ failed: expect.any(Number), requeued: expect.any(Number) });
    expect(await commands.get(stuck.id)).toMatchObject({ status: 'failed', error: { code: 'SYSTEM_ERROR' }, request: stuck.request });
    expect(finished).toContainEqual(
      expect.objectContaining({ id: stuck.id, type: 'lead_follow_up', tenant_id: 'tenant-p', parent_id: 'parent-2' }),
    );
    expect(sent).toContainEqual({
      queue: 'sales',
      job: { version: 1, type: 'lead_follow_up', tenant_id: 'tenant-p', command_id: stranded.id },
    });
    expect(await commands.get(stranded.id)).toMatchObject({
      status: 'in_progress',
      requeued_at: new Date(T0).toISOString(),
      request: stranded.request,
    });
  });

  it('gives back due follow-ups whole', async () => {
    const followUps = dynamoFollowUpStore(db, TABLE_NAME);
    const item = (position: number): StoredFollowUp => ({
      id: newId(),
      type: 'email',
      subject: `Step ${position}`,
      content: 'Hello Ada, following up on our call.',
      scheduled_for: new Date(T0 + position * 86_400_000).toISOString(),
      status: 'scheduled',
      site_id: 'site-1',
      lead_id: 'lead-1',
      user_id: null,
      metadata: { next_steps: 'Call back', lead_stage: 'qualified', sequence_position: position, template_used: 'email' },
      tenant_id: 'tenant-p',
      command_id: 'command-1',
      created_at: new Date(T0).toISOString(),
    });
    const saved = [item(1), item(2)];
    await owner('command-1');
    await followUps.saveSequence(saved);
    expect(await followUps.listDueFollowUps(new Date(T0 + 3 * 86_400_000).toISOString(), 10)).toEqual(saved);
  });

  it("gives back a lead's follow-ups whole through gsi2, after a lead event changed one", async () => {
    const steps = dynamoStepStore(db, TABLE_NAME);
    const commandId = newId();
    const saved: StoredFollowUp[] = [1, 2].map((position) => ({
      id: followUpId(commandId, position),
      type: 'email',
      subject: `Step ${position}`,
      content: 'Hello Ada, following up on our call.',
      scheduled_for: new Date(T0 + position * 86_400_000).toISOString(),
      status: 'scheduled',
      site_id: 'site-2',
      lead_id: 'lead-2',
      user_id: null,
      metadata: { next_steps: 'Call back', lead_stage: 'qualified', sequence_position: position, template_used: 'email' },
      tenant_id: 'tenant-p',
      command_id: commandId,
      created_at: new Date(T0).toISOString(),
      updated_at: new Date(T0).toISOString(),
      expires_at: 4_000_000_000,
    }));
    await owner(commandId);
    await dynamoFollowUpStore(db, TABLE_NAME).saveSequence(saved);
    const at = new Date(T0 + MINUTE).toISOString();
    const changed = await steps.change(
      saved[0]!.id,
      { at, status: 'cancelled', status_reason: 'replied', adapted_by: { event_id: 'event-1', event_type: 'replied', at } },
      { tenantId: 'tenant-p', statuses: ['scheduled'] },
    );
    const { steps: listed } = await steps.listForLead({ tenantId: 'tenant-p', siteId: 'site-2', leadId: 'lead-2' }, { limit: 10, now: T0 });
    expect(listed).toEqual([changed, await steps.get(saved[1]!.id)]);
    // And across the site, through gsi3.
    const { steps: siteListed } = await steps.listForSite({ tenantId: 'tenant-p', siteId: 'site-2' }, { limit: 10, now: T0 });
    expect(siteListed).toEqual(listed);
    expect(listed[0]).toMatchObject({
      status: 'cancelled',
      cancelled_at: at,
      status_reason: 'replied',
      adapted_by: { event_id: 'event-1' },
      expires_at: 4_000_000_000,
    });
  });
});
