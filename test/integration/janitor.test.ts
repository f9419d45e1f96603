import { Logger } from '@aws-lambda-powertools/logger';
import { sweepCommands, type JanitorDependencies } from '../../shared/commands/janitor';
import type { JobEnvelope } from '../../shared/commands/job';
import type { CommandRecord } from '../../shared/commands/record';
import type { CommandStore } from '../../shared/commands/store';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { newId } from '../../shared/platform/ids';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

/** The janitor against the embedded DynamoDB (its sparse index of commands in progress) with a fixed clock. */
let services: EmbeddedServices;
let commands: CommandStore;
const T0 = Date.parse('2026-11-23T10:00:00Z');
const MINUTE = 60_000;

beforeAll(async () => {
  services = await startEmbeddedServices();
  commands = dynamoCommandStore(services.db, services.aws.tableName);
});
afterAll(() => services.stop());

async function command(overrides: Partial<CommandRecord> & { createdAt: number }): Promise<CommandRecord> {
  const { createdAt, ...rest } = overrides;
  const record: CommandRecord = {
    id: newId(),
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: 'tenant-j',
    site_id: 'site-1',
    request: { siteId: 'site-1' },
    created_at: new Date(createdAt).toISOString(),
    updated_at: new Date(createdAt).toISOString(),
    attempts: 0,
    ...rest,
  };
  await commands.create(record);
  return record;
}

function janitorAt(now: number): JanitorDependencies & { sent: { queue: string; job: JobEnvelope }[] } {
  const sent: { queue: string; job: JobEnvelope }[] = [];
  return {
    sent,
    commands,
    queue: {
      async send(queue, job) {
        sent.push({ queue, job });
      },
    },
    clock: { now: () => now },
    logger: new Logger({ serviceName: 'test', logLevel: 'SILENT' }),
  };
}

describe('sweepCommands', () => {
  it('queues again, once per interval, a command no worker took up; leaves young and finished ones alone', async () => {
    const stranded = await command({ createdAt: T0 });
    const young = await command({ createdAt: T0 + 55 * MINUTE });
    const done = await command({ createdAt: T0 });
    await commands.complete(done, {}, T0 + MINUTE);
    const copywriter = await command({ createdAt: T0, type: 'copywriter' });

    const first = janitorAt(T0 + 15 * MINUTE);
    expect(await sweepCommands(first)).toMatchObject({ requeued: 2, failed: 0 });
    expect(first.sent.map(({ queue, job }) => [queue, job.command_id])).toEqual(
      expect.arrayContaining([
        ['sales', stranded.id],
        ['copywriter', copywriter.id],
      ]),
    );
    expect(first.sent.map(({ job }) => job.command_id)).not.toContain(young.id);
    expect(first.sent.map(({ job }) => job.command_id)).not.toContain(done.id);

    const soonAfter = janitorAt(T0 + 20 * MINUTE);
    await sweepCommands(soonAfter);
    expect(soonAfter.sent).toHaveLength(0);
  });

  it('fails, with a retryable SYSTEM_ERROR, a command stuck past its deadline, claimed or not', async () => {
    const claimed = await command({ createdAt: T0 - 3 * 60 * MINUTE });
    await commands.claim(
      claimed.id,
      { tenantId: claimed.tenant_id, type: claimed.type },
      T0 - 2 * 60 * MINUTE,
      T0 - 2 * 60 * MINUTE + MINUTE,
    );
    const neverTaken = await command({ createdAt: T0 - 2 * 60 * MINUTE, requeued_at: new Date(T0 - 5 * MINUTE).toISOString() });
    const report = await sweepCommands(janitorAt(T0));
    expect(report.failed).toBeGreaterThanOrEqual(2);
    for (const id of [claimed.id, neverTaken.id]) {
      expect(await commands.get(id)).toMatchObject({ status: 'failed', error: { code: 'SYSTEM_ERROR' } });
    }
  });

  it('finds nothing once every command has ended (finished commands leave the index)', async () => {
    const late = T0 + 24 * 60 * MINUTE;
    await sweepCommands(janitorAt(late));
    expect(await commands.listInProgress(new Date(late).toISOString(), 100)).toEqual([]);
  });
});
